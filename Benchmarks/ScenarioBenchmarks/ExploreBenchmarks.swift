import Benchmark
import ControlAPI
import Fakes
import Foundation
import ScenarioClient
import ScenarioExplore
import ScenarioHost
import ScenarioTesting
import Services

/// What exploring costs in process: an exploration of offline-demo (10 walks of 20 steps on the engine, each walk
/// checked after every step against the scenario's properties.yaml and replayed once), beside the same mix of 200 steps as a
/// hand-written loop over the same in-process API, with no checks and no replays; and explorations of the other
/// shipped Models' scenarios. Steps per second are 200 over each figure. Each runs on `threads` (see ``WalkThreads``).
func exploreBenchmarks(on threads: WalkThreads) {
    for parallelism in [1, 2] {
        exploreBenchmark(of: "offline-demo", parallelism: parallelism, on: threads)
    }
    // The other shipped Models, each on a scenario with a properties file or streams, two walks at once.
    for scenario in ["ratings-signed-out", "assistant-happy"] {
        exploreBenchmark(of: scenario, parallelism: 2, on: threads)
    }

    Benchmark("explore baseline: the same 200 steps as a hand-written loop", configuration: .perExploration) { benchmark, daemon in
        do {
            try await withTaskExecutorPreference(threads) { try await loopWalks(client: daemon.client) }
        } catch {
            benchmark.error("\(error)")
        }
    } setup: {
        try TestDaemon.inProcess(models: BenchmarkInputs.modelTypes, scenarios: BenchmarkInputs.shippedScenarios.path)
    }
}

/// An exploration of `scenario`, 10 walks of 20 steps, `parallelism` at a time, as ScenarioTesting's `explore` runs
/// it: the walks on the engine of the daemon in this process.
private func exploreBenchmark(of scenario: String, parallelism: Int, on threads: WalkThreads) {
    let name = "explore: \(scenario), 10 walks of 20 steps, \(parallelism == 1 ? "one" : "two") at a time"
    Benchmark(name, configuration: .perExploration) { benchmark, daemon in
        do {
            let before = daemon.memoFigures
            let report = try await withTaskExecutorPreference(threads) {
                try await Explorer(client: daemon.client, target: daemon.walkTarget, scenario: scenario,
                                   options: ExploreOptions(walks: 10, steps: 20, seed: 1, parallelism: parallelism)).run()
            }
            guard report.failure == nil, report.steps == 200 else { return benchmark.error(report.text) }
            benchmark.measurement(.memoHits, MemoFigures.hitPercentage(from: before, to: daemon.memoFigures))
        } catch {
            benchmark.error("\(error)")
        }
    } setup: {
        try TestDaemon.inProcess(models: BenchmarkInputs.modelTypes, scenarios: BenchmarkInputs.shippedScenarios.path)
    }
}

/// The hand-written loop: ten walks of 20 steps over the in-process API.
private func loopWalks(client: ControlClient) async throws {
    for walk in 0..<10 {
        let id = "loop-\(walk)"
        _ = try await client.createSession(scenario: "offline-demo", id: id)
        // About the mix a walk draws: five actions, two clock moves, a change of weather and an edit in nine.
        for step in 0..<20 {
            switch step % 9 {
            case 0, 3, 6: _ = try await client.perform("reload", session: id)
            case 1, 4:
                _ = try await client.perform("setIsRead", arguments: ["url": "https://www.cocoawithlove.com/blog/mock-views.html",
                                                                      "value": .bool(step % 2 == 0)], session: id)
            case 2, 7:
                _ = try await client.advanceClock(by: step == 2 ? "1s" : "15m", session: id)
                _ = try await client.state(session: id)
            case 5: _ = try await client.setNetworkConditions(.init(offline: walk % 2 == 0 ? true : nil), session: id)
            default: _ = try await client.setKeyValue("readItems", to: [], session: id)
            }
        }
        try await client.deleteSession(id)
    }
}

extension Benchmark.Configuration {
    /// An exploration is milliseconds: fewer iterations, the same bound in time.
    static var perExploration: Benchmark.Configuration {
        Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal, .memoHits], timeUnits: .microseconds,
                                warmupIterations: 3, maxDuration: .seconds(5), maxIterations: 500)
    }
}

extension BenchmarkMetric {
    /// Of the lookups in the engine's memos (decoded actions, encoded states, resolved routes, parsed states)
    /// during one exploration, the percentage answered from the memo.
    static var memoHits: BenchmarkMetric { .custom("memo hits (%)", polarity: .prefersLarger, useScalingFactor: false) }
}

extension MemoFigures {
    /// The percentage of lookups between two readings of the same memos that were hits.
    static func hitPercentage(from before: [MemoFigures], to after: [MemoFigures]) -> Int {
        let hits = after.map(\.hits).reduce(0, +) - before.map(\.hits).reduce(0, +)
        let misses = after.map(\.misses).reduce(0, +) - before.map(\.misses).reduce(0, +)
        return hits + misses == 0 ? 0 : 100 * hits / (hits + misses)
    }
}

/// The ceiling under both: the same 200 steps straight on the engine's sessions, with no control API and no JSON,
/// one walk at a time and two, on `threads`.
func exploreEngineBenchmark(on threads: WalkThreads) {
    for parallel in [1, 2] {
        let name = parallel == 1 ? "one at a time" : "two at a time"
        Benchmark("explore floor: the same 200 steps on the engine, no API, \(name)", configuration: .perExploration) { benchmark, host in
            let failures = await withTaskExecutorPreference(threads) { await withTaskGroup(of: String?.self) { group in
                for lane in 0..<parallel {
                    group.addTask {
                        do {
                            for walk in stride(from: lane, to: 10, by: parallel) { try await engineWalk(walk, host: host) }
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
            } }
            if let failure = failures.first { benchmark.error(failure) }
        } setup: {
            try BenchmarkInputs.host()
        }
    }
}

/// One walk of the hand-written loop's 20 steps, on the engine.
private func engineWalk(_ walk: Int, host: SessionHost) async throws {
    let session = try await host.createSession(of: "offline-demo", id: "engine-\(walk)")
    for step in 0..<20 {
        switch step % 9 {
        case 0, 3, 6: _ = try await session.perform("reload")
        case 1, 4:
            _ = try await session.perform("setIsRead", arguments: ["url": "https://www.cocoawithlove.com/blog/mock-views.html",
                                                                   "value": .bool(step % 2 == 0)])
        case 2, 7:
            _ = try await session.advanceClock(by: step == 2 ? .seconds(1) : .seconds(900))
            _ = try await session.state()
        case 5: _ = try await session.setNetworkConditions(NetworkConditions(offline: walk % 2 == 0))
        default: try await session.setKeyValue("readItems", to: [])
        }
    }
    try await host.deleteSession(session.id)
}
