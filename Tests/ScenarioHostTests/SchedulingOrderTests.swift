import Fakes
import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import TaskModels
import Testing

/// Work ready at the same moment runs in the order the session's seed picks; the default is first-ready-first.
@Suite struct SchedulingOrderTests {
    func arrivals(_ scenario: String, host: SessionHost) async throws -> [Int] {
        let session = try await host.createSession(of: scenario)
        return try await session.perform("race", arguments: ["runners": 8]).decoded(as: RaceView.self).arrivals
    }

    @Test func withoutASeedTasksReadyTogetherRunInTheOrderTheyBecameReady() async throws {
        let host = try makeTaskHost()
        #expect(try await arrivals("race", host: host) == Array(0..<8))
    }

    /// A schedule seed as a session's only override (what explore gives every walk) is resolved once per scenario and
    /// then only the seed set: the session's scenario is the one a full resolution of the override gives.
    @Test func aSeedAloneOverridesAsAFullResolutionDoes() async throws {
        let host = try makeTaskHost()
        let parent = try await host.scenario(named: "race")
        for seed in [5, 0, 17, 5] {
            let overrides: JSONValue = ["schedule": ["seed": .int(seed)]]
            let full = try ScenarioOverrides.apply(overrides, to: parent, models: host.models.names, services: host.models.services)
            let session = try await host.createSession(of: "race", overrides: overrides)
            let scenario = session.scenario
            #expect(scenario.scheduleSeed == UInt64(seed) && full.scheduleSeed == UInt64(seed))
            #expect(scenario.name == full.name && scenario.ancestors == full.ancestors && scenario.sources == full.sources)
            #expect(scenario.description == full.description && scenario.directory == full.directory)
            #expect(scenario.routes.map(\.name) == full.routes.map(\.name) && scenario.seed == full.seed)
            // And it runs in that seed's order, as a session whose overrides are read in full does.
            let runners = try await session.perform("race", arguments: ["runners": 8]).decoded(as: RaceView.self).arrivals
            let written = try await host.createSession(of: "race", overrides: ["schedule": ["seed": .int(seed)], "random": ["seed": 1]])
            #expect(try await written.perform("race", arguments: ["runners": 8]).decoded(as: RaceView.self).arrivals == runners)
        }
        // A negative seed is not the fast path's: refused as the file's reading refuses it.
        await #expect(throws: HostError.self) { try await host.createSession(of: "race", overrides: ["schedule": ["seed": -1]]) }
    }

    @Test func twoSeedsGiveTwoOrdersEachTheSameEveryTime() async throws {
        let host = try makeTaskHost()
        let one = try await arrivals("race-seed-1", host: host)
        let two = try await arrivals("race-seed-2", host: host)
        #expect(one.sorted() == Array(0..<8) && two.sorted() == Array(0..<8))
        #expect(one != two)
        #expect(one != Array(0..<8) || two != Array(0..<8))
        for _ in 0..<8 {
            #expect(try await arrivals("race-seed-1", host: host) == one)
            #expect(try await arrivals("race-seed-2", host: host) == two)
        }
    }

    @Test func aRewindReplaysTheSeedsOrderByteForByte() async throws {
        let host = try makeTaskHost()
        let session = try await host.createSession(of: "race-seed-1")
        let first = try await session.perform("race", arguments: ["runners": 8])
        let second = try await session.perform("race", arguments: ["runners": 8])
        #expect(try await session.rewind(to: 1).jsonData == first.jsonData)
        try await session.perform("race", arguments: ["runners": 8])
        #expect(try await session.state().jsonData == second.jsonData)
        #expect(try await session.rewind(to: 2).jsonData == second.jsonData)
    }

    @Test func aSeedOrdersSleepersDueAtTheSameInstant() async throws {
        let host = try makeTaskHost(extra: ["fan-out-seed-3": """
        description: Five branches; seed 3 orders what is due together.
        model: FanOut
        schedule: { seed: 3 }
        """])
        // No two branches are due together in fan-out, so the seed leaves their order alone.
        let session = try await host.createSession(of: "fan-out-seed-3")
        try await session.perform("gather")
        try await session.advanceClock(by: .seconds(30))
        #expect(try await session.json() == ["results": ["async-let-a", "async-let-b", "group-d", "group-e", "group-c"], "done": true])
    }
}

struct RaceView: Decodable {
    var arrivals: [Int]
}
