import ControlAPI
import ScenarioClient
import ScenarioTesting
import Services
import Testing

/// The parts of FeedReader's state these tests look at, in the test's own type.
struct Feed: Decodable, Sendable {
    struct Item: Decodable, Sendable {
        var title: String
        var isRead: Bool
    }
    var items: [Item]
    var isLoading: Bool
    var error: String?
}

/// FeedReader tested through scenarios only: no fakes written here, each test picks a scenario. Swift Testing runs
/// the tests in parallel, each in its own session of one shared daemon.
@Suite struct FeedReaderScenarioTests {
    @Test func offlineDemoShowsTheFeedWithTwoItemsRead() async throws {
        try await withScenario("offline-demo") { session in
            let feed = try await session.state(as: Feed.self)
            #expect(feed.items.count == 4)
            #expect(feed.items.filter(\.isRead).count == 2)
            try await session.expectRequest("GET", "https://www.cocoawithlove.com/feed.json")
            try await session.expectNoUnmatchedRequests()
        }
    }

    @Test func aServerErrorIsShownToTheUser() async throws {
        try await withScenario("server-error") { session in
            let feed = try await session.perform("reload", as: Feed.self)
            #expect(feed.error == "The feed server answered 500.")
            #expect(feed.items.isEmpty)
        }
    }

    @Test func aSlowNetworkShowsLoadingUntilTheResponseArrives() async throws {
        try await withScenario("slow-network") { session in
            #expect(try await session.state(as: Feed.self).isLoading)
            let loaded = try await session.waitForState(as: Feed.self, advancingBy: "500ms", upTo: "10s") { !$0.isLoading }
            #expect(loaded.items.count == 4)
        }
    }

    @Test func theFeedRefreshesItselfAfterFifteenMinutes() async throws {
        try await withScenario("feed-updates") { session in
            #expect(try await session.state(as: Feed.self).items.count == 4)
            let updated = try await session.waitForState(as: Feed.self, advancingBy: "1m", upTo: "1h") { $0.items.count == 5 }
            #expect(updated.items.first?.title == "Virtual time for tests")
            #expect(try await session.requests().count == 2)
            try await session.expectRequest(route: "feed", times: 2)
        }
    }

    @Test func aDelayAddedToEveryAnswerShowsTheLoadingState() async throws {
        try await withScenario("offline-demo") { session in
            try await session.setNetworkConditions(delay: "5s")
            #expect(try await session.perform("reload", as: Feed.self).isLoading)
            try await session.advanceClock(by: "5s")
            #expect(try await session.state(as: Feed.self).isLoading == false)
            try await session.setNetworkConditions()
            #expect(try await session.perform("reload", as: Feed.self).isLoading == false)
        }
    }

    @Test func aTestSendsARequestThroughTheSessionsRoutes() async throws {
        try await withScenario("offline-demo") { session in
            let sent = try await session.send("GET", "https://www.cocoawithlove.com/feed.json", headers: ["Accept: application/json"])
            #expect(sent.status == 200 && sent.journal?.route == "feed")
            let missed = try await session.send("GET", "https://www.cocoawithlove.com/feed.xml")
            #expect(missed.fault == "connectionRefused")
            #expect(missed.journal?.nearMisses?.first?.explanation.contains("differs in /url") == true)
            // The Model's own requests are its start's fetch only; the route answered the test's too.
            #expect(try await session.requests().count == 1)
            try await session.expectRequest(route: "feed", times: 2)
        }
    }

    @Test func aVariationNeedsNoScenarioFileOfItsOwn() async throws {
        let unavailable: JSONValue = ["network": ["routes": [[
            "name": "feed",
            "request": ["method": "GET", "url": "https://www.cocoawithlove.com/feed.json"],
            "response": ["status": 503],
        ]]]]
        try await withScenario("first-launch", overriding: unavailable) { session in
            #expect(try await session.state(as: Feed.self).error == "The feed server answered 503.")
            #expect(try await session.requests().first?.override == true)
            try await session.removeRoute("feed")
            #expect(try await session.perform("reload", as: Feed.self).error != nil)
            try await session.setRoute("feed", ["request": ["method": "GET", "url": "https://www.cocoawithlove.com/feed.json"],
                                                "response": ["status": 200, "bodyFile": "fixtures/feed.json"]])
            #expect(try await session.perform("reload", as: Feed.self).items.count == 4)
        }
    }

    /// A feed answered from a template: its one item says how and when it was asked for, on the virtual clock.
    static let templatedFeed: JSONValue = ["network": ["routes": [[
        "extends": "feed",
        "response": ["template": true, "body": [
            "version": "https://jsonfeed.org/version/1.1", "title": "Templated",
            "items": [["id": "{{request.url}}", "title": "Asked {{request.method}} at {{now}}"]],
        ]],
    ]]]]

    @Test func aTemplatedAnswerTakesItsValuesFromTheRequestAndTheVirtualClock() async throws {
        try await withScenario("first-launch", overriding: Self.templatedFeed) { session in
            #expect(try await session.state(as: Feed.self).items.map(\.title) == ["Asked GET at 2026-11-01T09:00:00Z"])
            try await session.advanceClock(by: "1h")
            #expect(try await session.perform("reload", as: Feed.self).items.map(\.title) == ["Asked GET at 2026-11-01T10:00:00Z"])
        }
    }

    @Test func templatedAnswersAreDeterministic() async throws {
        try await expectDeterministic("first-launch", overriding: Self.templatedFeed) { session in
            try await session.advanceClock(by: "15m")
            try await session.perform("reload")
        }
    }

    @Test func rewindingReturnsToTheStateBeforeAStep() async throws {
        try await withScenario("first-launch") { session in
            let before = try await session.client.state(session: session.id)
            try await session.perform("setIsRead", ["url": "https://www.cocoawithlove.com/blog/mock-views.html", "value": true])
            try await session.advanceClock(by: "20m")
            #expect(try await session.history().map(\.kind) == ["start", "action", "advanceClock"])
            #expect(try await session.rewind(to: 0) == before)
            #expect(try await session.history().count == 1)
        }
    }

    @Test func overridesWithProblemsAreRefusedWithTheirJSONPointers() async throws {
        let wrong: JSONValue = ["network": ["routes": [["name": "feed", "response": ["status": 2000]]]]]
        let error = await #expect(throws: ScenarioClientError.self) {
            try await withScenario("offline-demo", overriding: wrong) { _ in }
        }
        #expect("\(String(describing: error))".contains("/network/routes/0/response/status: network.routes[0].response.status must be an integer from 100 to 599"), "\(String(describing: error))")
    }

    @Test func aWrongRequestCountSaysWhatTheRouteAnswered() async throws {
        try await withScenario("offline-demo") { session in
            try await session.expectRequest(route: "feed", times: 1)
            let wrong = await #expect(throws: ScenarioTestingError.self) { try await session.expectRequest(route: "feed", times: 3) }
            #expect(wrong?.description.contains("route 'feed' of session \(session.id) answered 1 request, not 3") == true, "\(String(describing: wrong))")
            let unknown = await #expect(throws: ScenarioTestingError.self) { try await session.expectRequest(route: "fed", times: 1) }
            #expect(unknown?.description.contains("its routes are feed") == true, "\(String(describing: unknown))")
        }
    }

    @Test func readMarksAreSavedUnderOneKey() async throws {
        try await withScenario("first-launch") { session in
            let url = "https://www.cocoawithlove.com/blog/services-layer.html"
            let feed = try await session.perform("setIsRead", ["url": .string(url), "value": true], as: Feed.self)
            #expect(feed.items.filter(\.isRead).map(\.title) == ["The services layer"])
            #expect(try await session.client.keyValue("readItems", session: session.id) == [.string(url)])
        }
    }
}
