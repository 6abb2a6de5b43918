import ControlAPI
import Fakes
import Foundation
import ScenarioClient
import ScenarioTesting
import Services
import TaskModels
import Testing

/// The bell of TaskModels' Alarm, as fixtured registers it: each ring kept in its state.
struct SuiteBell: Bell {
    let context: ServiceFakeContext<[String]>

    func ring(_ note: String) async {
        context.update { $0.append(note) }
    }
}

/// The two ScenarioTesting modes a suite of the test Models can run in.
enum Mode: String, CaseIterable, Sendable {
    case inProcess
    case daemon

    func start() async throws -> TestDaemon {
        let scenarios = try writeTaskModelScenarios()
        switch self {
        case .inProcess:
            let bell = ServiceDefinition(BellKey.self, description: "The bell an alarm rings", initialState: [String]()) { SuiteBell(context: $0) }
            return try TestDaemon.inProcess(models: taskModels, services: [bell], scenarios: scenarios)
        case .daemon:
            // fixtured hosts the same Models: a team's daemon, as its suite would start it.
            return try await TestDaemon.start(binary: try TestDaemon.executable(named: "fixtured"), scenarios: scenarios)
        }
    }
}

struct Kettle: Decodable, Sendable {
    var status: String
}

/// A team's suite of app-style Models: the state is exact after the action and the clock move, in both modes, over
/// 16 parallel sessions; an escape fails the test.
@Suite struct OwnedTasksSuiteTests {
    @Test(arguments: Mode.allCases)
    func sixteenParallelSessionsSeeExactStates(mode: Mode) async throws {
        let daemon = try await mode.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await withScenario("kettle", daemon: daemon) { session in
                        #expect(try await session.perform("boil", as: Kettle.self).status == "heating")
                        _ = try await session.advanceClock(by: "89s")
                        #expect(try await session.state(as: Kettle.self).status == "heating")
                        _ = try await session.advanceClock(by: "1s")
                        #expect(try await session.state(as: Kettle.self).status == "ready")
                    }
                    try await withScenario("fan-out", daemon: daemon) { session in
                        _ = try await session.perform("gather")
                        _ = try await session.advanceClock(by: "30s")
                        #expect(try await session.state(as: JSONValue.self) == [
                            "results": ["async-let-a", "async-let-b", "group-d", "group-e", "group-c"], "done": true,
                        ])
                    }
                    try await withScenario("relay", daemon: daemon) { session in
                        _ = try await session.perform("relay")
                        _ = try await session.advanceClock(by: "5s")
                        #expect(try await session.state(as: JSONValue.self) == ["answer": "pong", "hops": 2])
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The test of the test: a Model that starts a Task.detached, or reads Date(), cannot pass.
    @Test(arguments: Mode.allCases, [("detach", ["Task.detached"]), ("readDate", ["wallClockRead", "Date()"])])
    func anEscapingModelFailsItsTestNamingTheEscape(mode: Mode, escape: (action: String, named: [String])) async throws {
        let daemon = try await mode.start()
        let error = await #expect(throws: ScenarioClientError.self) {
            try await withScenario("escaper", daemon: daemon) { session in
                _ = try await session.perform(escape.action)
            }
        }
        #expect(error?.code == .modelEscaped)
        let message = error.map { String(describing: $0) } ?? ""
        for name in escape.named { #expect(message.contains(name), "\(message)") }
    }

    @Test(arguments: Mode.allCases)
    func anEscapeIsOnTheEventStreamAndInTheSessionsInfo(mode: Mode) async throws {
        let daemon = try await mode.start()
        try await withScenario("escaper", daemon: daemon) { (session: ScenarioSession) async throws -> Void in
            let events = try await session.client.events(session: session.id)
            _ = try? await session.perform("wallSleep")
            var kinds: [JSONValue] = []
            for try await event in events {
                if event.name == "modelEscaped", case .object(let escape) = event.data, let kind = escape["kind"] { kinds.append(kind) }
                if event.name == "historyChanged" { break }
            }
            #expect(kinds == ["wallClockSleep"])
            let info = try await session.client.session(session.id)
            #expect(info.escapes.map(\.kind) == ["wallClockSleep"])
            #expect(info.escapes.first?.during == "action 'wallSleep'")
        }
    }

    @Test func expectDeterministicRefusesARunThatEscaped() async throws {
        let daemon = try await Mode.inProcess.start()
        await #expect(throws: (any Error).self) {
            try await expectDeterministic("escaper", daemon: daemon) { session in
                _ = try await session.perform("thread")
            }
        }
        try await expectDeterministic("race-seed-1", daemon: daemon) { session in
            _ = try await session.perform("race", ["runners": 6])
        }
    }
}
