import Foundation
import ScenarioClient
import Services
import Testing

/// Every shipped scenario, driven through the real daemon by ControlClient, scenarioctl and curl alike.
@Suite(.serialized) struct ShippedScenariosEndToEndTests {
    struct Drive: Sendable, CustomTestStringConvertible {
        var scenario: String
        var steps: [Step]
        var expectation: String
        var check: @Sendable (JSONValue) -> Bool
        var testDescription: String { scenario }
    }

    static let drives: [Drive] = [
        Drive(scenario: "offline-demo", steps: [.action("setIsRead", ["url": "https://www.cocoawithlove.com/blog/mock-views.html", "value": true])],
              expectation: "4 items, 3 read") {
            $0["items"]?.count == 4 && String(decoding: $0.jsonData, as: UTF8.self).components(separatedBy: #""isRead":true"#).count - 1 == 3
        },
        Drive(scenario: "first-launch", steps: [], expectation: "4 items, none read") {
            $0["items"]?.count == 4 && !String(decoding: $0.jsonData, as: UTF8.self).contains(#""isRead":true"#)
        },
        Drive(scenario: "empty-feed", steps: [.action("reload", [:])], expectation: "no items, no error") {
            $0["items"]?.count == 0 && $0["error"] == nil
        },
        Drive(scenario: "server-error", steps: [], expectation: "the 500 is presented") {
            $0["error"] == "The feed server answered 500."
        },
        Drive(scenario: "malformed-feed", steps: [], expectation: "the bad feed is presented") {
            $0["error"] == "The feed could not be read: it is not a valid JSON Feed."
        },
        Drive(scenario: "slow-network", steps: [.advance("1s")], expectation: "still loading after 1 s") {
            $0["isLoading"] == true && $0["items"]?.count == 0
        },
        Drive(scenario: "offline", steps: [.action("reload", [:])], expectation: "offline error") {
            $0["error"] == "Could not load the feed: The network is offline."
        },
        Drive(scenario: "feed-updates", steps: [.advance("15m")], expectation: "5 items after the refresh") {
            $0["items"]?.count == 5 && $0["lastRefresh"] == "2026-11-01T09:15:00Z"
        },
        Drive(scenario: "ratings-signed-out", steps: [.action("signIn", ["user": "alice", "password": "correct horse"]),
                                                       .action("rate", ["driver": 5, "bus": 3])],
              expectation: "signed in, rating submitted") {
            $0["user"] == "alice" && $0["lastSubmitted"] == ["driver": 5, "bus": 3]
        },
        Drive(scenario: "ratings-signed-in", steps: [.action("fetchRating", [:])], expectation: "rating 4.5 of 12") {
            $0["rating"] == ["average": 4.5, "count": 12]
        },
        Drive(scenario: "ratings-expired-token", steps: [.action("fetchRating", [:])], expectation: "signed out with the server's message") {
            $0["user"] == nil && $0["error"] == "You were signed out: Your token expired at 2026-11-01T08:00:00Z; sign in again."
        },
        Drive(scenario: "assistant-happy", steps: [.action("send", ["text": "Hi"]), .advance("1200ms")],
              expectation: "the reply part-way at +1.2 s") {
            $0["messages"]?.last == ["role": "assistant", "text": "Scenarios swap the ", "status": "streaming"] && $0["isReplying"] == true
        },
        Drive(scenario: "assistant-slow-tokens", steps: [.action("send", ["text": "Hi"]), .advance("6s")],
              expectation: "two slow tokens after 6 s") {
            $0["messages"]?.last == ["role": "assistant", "text": "Slow and ", "status": "streaming"]
        },
        Drive(scenario: "assistant-dropped", steps: [.action("send", ["text": "Hi"]), .advance("2s"), .action("retry", [:]), .advance("4s")],
              expectation: "cut off, retried, complete") {
            $0["messages"]?.count == 2 && $0["error"] == nil
                && $0["messages"]?.last == ["role": "assistant", "text": "Scenarios swap the services, not the server.", "status": "complete"]
        },
        Drive(scenario: "assistant-offline", steps: [.action("send", ["text": "Hi"])], expectation: "offline, the reply failed") {
            $0["error"] == "You are offline; the reply will be here once you retry."
                && $0["messages"]?.last == ["role": "assistant", "text": "", "status": "failed"]
        },
        Drive(scenario: "assistant-error-event", steps: [.action("send", ["text": "Hi"]), .advance("2s")],
              expectation: "the server's error event is shown") {
            $0["error"] == "The assistant could not finish: The model is overloaded; try again in a minute."
                && $0["messages"]?.last == ["role": "assistant", "text": "Let me ", "status": "failed"]
        },
        Drive(scenario: "assistant-socket-error", steps: [.advance("6s")], expectation: "the presence socket closed with 1011") {
            $0["presenceError"] == "Presence closed (1011: presence service restarting)." && $0["assistantOnline"] == false
        },
        Drive(scenario: "assistant-stalled", steps: [.action("send", ["text": "Hi"]), .advance("1m")],
              expectation: "the reply hangs after its first token") {
            $0["messages"]?.last == ["role": "assistant", "text": "Thinking", "status": "streaming"] && $0["isReplying"] == true
        },
        Drive(scenario: "trips-happy", steps: [.action("search", ["from": "oslo-s", "to": "bergen"]), .action("follow", ["tripID": "t-1000"]), .advance("1m")],
              expectation: "one trip found, its vehicle followed for two positions") {
            $0["results"]?.count == 1 && $0["following"]?["updates"] == 2 && $0["error"] == nil
        },
        Drive(scenario: "trips-planner-down", steps: [.action("search", ["from": "oslo-s", "to": "drammen"])], expectation: "the planner's error is shown") {
            $0["error"] == "The planner says: The journey planner is down for maintenance." && $0["results"]?.count == 0
        },
    ]

    /// Shipped scenarios that reach the real network; tests never do, so Tests/system/test_live.py drives these
    /// against a loopback server (through `network.forward`) instead.
    static let liveScenarios: Set = ["live"]

    @Test func everyShippedScenarioHasADrive() throws {
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Binaries.scenarios.path)
            .filter { !$0.hasPrefix(".") && !Self.liveScenarios.contains($0) }.sorted()
        #expect(Self.drives.map(\.scenario).sorted() == shipped)
    }

    @Test(arguments: drives)
    func driveThroughEveryTransport(_ drive: Drive) async throws {
        let daemon = try await RunningDaemon.start()
        let transports: [any Transport] = [ClientTransport(), ControlToolTransport(), CurlTransport()]
        var states: [JSONValue] = []
        for transport in transports {
            let state = try await transport.drive(scenario: drive.scenario, session: "\(transport.name.lowercased())-1", steps: drive.steps, socket: daemon.socket)
            #expect(drive.check(state), "\(drive.scenario) through \(transport.name): expected \(drive.expectation), got \(state)")
            states.append(state)
        }
        #expect(Set(states).count == 1, "the three transports disagree: \(states)")
        #expect(await daemon.stop() == 0)
    }
}
