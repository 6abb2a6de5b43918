import Fakes
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

    /// A templated answer takes the request and the virtual clock, never the wall clock: two sessions driven alike,
    /// at different real times, answer alike.
    @Test func aTemplatedScenarioGivesTheSameBytes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-templated-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("templated"), withIntermediateDirectories: true)
        try Data("""
            description: A feed whose one item says when and how it was asked for.
            extends: first-launch
            network:
              routes:
                - extends: feed
                  response:
                    template: true
                    body:
                      version: https://jsonfeed.org/version/1.1
                      title: "Feed of {{request.path.0}}"
                      items:
                        - id: "{{request.url}}"
                          url: "{{request.url}}"
                          title: "Asked {{request.method}} at {{now}}"
                          date_published: "{{now.date}}"
            """.utf8).write(to: directory.appendingPathComponent("templated/scenario.yaml"))
        let models = shippedModels
        let catalog = ScenarioCatalog.load(from: [shippedScenarios, directory], models: models.names)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        let first = try await Self.drive(SessionHost(catalog: catalog, models: models).createSession(of: "templated"))
        try await Task.sleep(for: .milliseconds(20))
        let second = try await Self.drive(SessionHost(catalog: catalog, models: models).createSession(of: "templated"))
        #expect(first == second)
        // The template was rendered: the answer names the clock's time, and the Model took it in.
        #expect(String(decoding: first, as: UTF8.self).contains("Asked GET at 2026-"))
    }

    /// Going offline breaks the open streams, and the switch returns once the Model has seen them break: a state read
    /// right after it finds the same whenever it comes (explore found a replay that read it sooner and differed).
    @Test func aNetworkSwitchReturnsOnceTheModelHasSeenItsStreamsBreak() async throws {
        let host = makeHost()
        for index in 0..<20 {
            let session = try await host.createSession(of: "assistant-happy", id: "switch-\(index)")
            let before = try await session.state().value()
            #expect(before.value(at: "/presenceError") == nil)
            try await session.setNetworkConditions(NetworkConditions(offline: true))
            let error = try await session.state().value().value(at: "/presenceError")
            #expect(error == "Presence was cut off: The network is offline.", "session \(index): \(String(describing: error))")
            // A rewind makes the switch again, and lets the Model see it as the first time did.
            let rewound = try await session.rewind(to: 1).value()
            #expect(rewound.value(at: "/presenceError") == error)
            try await host.deleteSession(session.id)
        }
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
