import ControlAPI
import Foundation
import ScenarioTesting
import Services
import TaskModels
import Testing

/// The schedule seed's promise, Model kind by tie kind, in both modes: the same seed gives the same run in every
/// session (200 of them, eight at a time), and the seeds between them reach every order the work can take.
@Suite struct ScheduleSeedMatrixTests {
    struct Ties: Decodable, Equatable, Sendable {
        var arrivals: [String]
    }

    /// The scenarios of TaskModels' two kinds of tie Model: a `@MainActor` class and an `actor`.
    static let models = ["main-ties", "actor-ties"]

    /// What a run must repeat: the state, the journal and the history.
    struct Run: Hashable, Sendable {
        var arrivals: [String]
        var journal: [NetworkExchange]
        var history: [HistoryBody.Step]
    }

    /// One session's run of `kind` with `count` units, under `seed`, once the clock has passed every timer, answer
    /// and stream event.
    static func run(_ scenario: String, kind: TieKind, count: Int, seed: Int, daemon: TestDaemon) async throws -> Run {
        try await withScenario(scenario, overriding: ["schedule": ["seed": .int(seed)]], daemon: daemon) { session in
            try await session.perform("tie", ["kind": .string(kind.rawValue), "count": .int(count)])
            _ = try await session.advanceClock(by: "10s")
            return Run(arrivals: try await session.state(as: Ties.self).arrivals, journal: try await session.requests(),
                       history: try await session.history())
        }
    }

    /// Runs `sessions` sessions of one seed, eight at a time, and returns the distinct runs they ended in.
    static func runs(_ scenario: String, kind: TieKind, count: Int, seed: Int, sessions: Int, daemon: TestDaemon) async throws -> Set<Run> {
        try await withThrowingTaskGroup(of: Run.self) { group in
            var seen = Set<Run>()
            var started = 0
            while started < min(8, sessions) {
                group.addTask { try await run(scenario, kind: kind, count: count, seed: seed, daemon: daemon) }
                started += 1
            }
            for try await ended in group {
                seen.insert(ended)
                if started < sessions {
                    group.addTask { try await run(scenario, kind: kind, count: count, seed: seed, daemon: daemon) }
                    started += 1
                }
            }
            return seen
        }
    }

    /// A move that wakes 400 timers due together runs far past the 2 ms a move may hold its caller's thread, so it
    /// goes on on the global executor part-way (`LongRun`): the seed still names one run, whichever threads ran it.
    @Test(arguments: Mode.allCases, models)
    func aMoveThatLeavesItsCallersThreadPartWayStillGivesOneRunPerSeed(mode: Mode, scenario: String) async throws {
        let daemon = try await mode.start()
        for seed in [3, 8] {
            let runs = try await Self.runs(scenario, kind: .timers, count: 400, seed: seed, sessions: 40, daemon: daemon)
            #expect(runs.count == 1, "\(scenario), 400 timers under seed \(seed) ended \(runs.count) ways in 40 sessions")
            #expect(runs.first?.arrivals.count == 400)
        }
    }

    @Test(arguments: Mode.allCases, models)
    func aSeedGivesOneRunIn200SessionsForEveryKindOfTie(mode: Mode, scenario: String) async throws {
        let daemon = try await mode.start()
        for kind in TieKind.allCases {
            for seed in [5, 11] {
                let runs = try await Self.runs(scenario, kind: kind, count: 2, seed: seed, sessions: 200, daemon: daemon)
                #expect(runs.count == 1, "\(scenario), \(kind) under seed \(seed) ended \(runs.count) ways in 200 sessions: \(runs.map(\.arrivals))")
            }
        }
    }

    /// Each of the two orders of two tied units is reached by some seed, and each of the six of three.
    @Test(arguments: Mode.allCases, models)
    func seedsReachEveryOrder(mode: Mode, scenario: String) async throws {
        let daemon = try await mode.start()
        for kind in TieKind.allCases where kind != .streams {
            for (count, orders) in [(2, 2), (3, 6)] {
                var seen = Set<[String]>()
                for seed in 0..<64 where seen.count < orders {
                    seen.insert(try await Self.run(scenario, kind: kind, count: count, seed: seed, daemon: daemon).arrivals)
                }
                #expect(seen.count == orders, "\(scenario), \(kind): \(count) units took \(seen.count) of \(orders) orders in 64 seeds")
            }
        }
        // Two readers, two events each: at each instant either reader may go first.
        var seen = Set<[String]>()
        for seed in 0..<64 where seen.count < 4 {
            seen.insert(try await Self.run(scenario, kind: .streams, count: 2, seed: seed, daemon: daemon).arrivals)
        }
        #expect(seen.count == 4, "\(scenario), streams: \(seen.sorted { $0.lexicographicallyPrecedes($1) })")
    }

    /// The same seed gives the same run in the test's process and in a daemon behind a socket.
    @Test(arguments: models)
    func aSeedGivesTheSameRunInProcessAndOverTheSocket(scenario: String) async throws {
        let inProcess = try await Mode.inProcess.start()
        let daemon = try await Mode.daemon.start()
        for kind in TieKind.allCases {
            for seed in 0..<6 {
                let here = try await Self.run(scenario, kind: kind, count: 3, seed: seed, daemon: inProcess)
                let there = try await Self.run(scenario, kind: kind, count: 3, seed: seed, daemon: daemon)
                #expect(here == there, "\(scenario), \(kind), seed \(seed): \(here.arrivals) in process, \(there.arrivals) over the socket")
            }
        }
    }
}
