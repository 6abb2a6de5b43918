import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// The same scenario and the same actions give byte-identical state and journal, run after run.
@Suite struct DeterminismTests {
    /// A fixed script of actions and clock moves, exercising every service.
    static func drive(_ session: Session) async throws -> Data {
        if session.scenario.model == "FeedReader" {
            try await session.perform("setIsRead", arguments: ["url": "https://www.cocoawithlove.com/blog/mock-views.html", "value": true])
            try await session.advanceClock(by: .seconds(1))
            try await session.perform("reload")
            try await session.advanceClock(by: .seconds(31 * 60))
            try await session.perform("setIsRead", arguments: ["url": "https://www.cocoawithlove.com/blog/services-layer.html", "value": false])
            try await session.advanceClock(by: .seconds(3))
        } else {
            try await session.perform("fetchRating")
            try await session.perform("signIn", arguments: ["user": "alice", "password": "correct horse"])
            try await session.perform("rate", arguments: ["driver": 3, "bus": 5])
            try await session.advanceClock(by: .seconds(60))
            try await session.perform("fetchRating")
        }
        let encoder = JSONEncoder.services
        var output = try await session.state().jsonData
        output.append(try encoder.encode(await session.requestJournal()))
        output.append(try encoder.encode(try await session.keyValueKeys()))
        return output
    }

    @Test(arguments: ["offline-demo", "feed-updates", "slow-network", "offline", "ratings-signed-out", "ratings-expired-token"])
    func sameScenarioSameActionsSameBytes(scenario: String) async throws {
        let first = try await Self.drive(makeHost().createSession(of: scenario))
        let second = try await Self.drive(makeHost().createSession(of: scenario))
        #expect(first == second)
        #expect(first.count > 100)
    }

    @Test func resetGivesTheSameBytesAsANewSession() async throws {
        let host = makeHost()
        let session = try await host.createSession(of: "feed-updates")
        let first = try await Self.drive(session)
        try await session.reset()
        let second = try await Self.drive(session)
        #expect(first == second)
    }
}
