import Fakes
import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// Every shipped scenario, driven through the host, with the Model's resulting state asserted.
@Suite struct ShippedScenarioTests {
    let host = makeHost()

    @Test func everyShippedScenarioIsValid() async throws {
        let catalog = await host.catalog
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        #expect(catalog.scenarios.count >= 8)
        for scenario in catalog.scenarios.values {
            #expect(!scenario.description.isEmpty, "\(scenario.name) has no description")
        }
    }

    @Test func offlineDemoShowsTheFullFeedWithTwoItemsRead() async throws {
        let session = try await host.createSession(of: "offline-demo")
        let feed = try await session.feed()
        #expect(feed.items.count == 4)
        #expect(feed.items.filter(\.isRead).map(\.title) == ["Testing actors in Swift", "The services layer"])
        #expect(feed.error == nil)
        #expect(feed.lastRefresh == "2026-11-01T09:00:00Z")
        let read = try await session.perform("setIsRead", arguments: .object([
            "url": .string("https://www.cocoawithlove.com/blog/mock-views.html"), "value": .bool(true)]))
        #expect(try read.decoded(as: FeedView.self).items.filter(\.isRead).count == 3)
        #expect(try await session.keyValue("readItems") == .array([
            .string("https://www.cocoawithlove.com/blog/mock-views.html"),
            .string("https://www.cocoawithlove.com/blog/services-layer.html"),
            .string("https://www.cocoawithlove.com/blog/testing-actors-in-swift.html"),
        ]))
    }

    @Test func firstLaunchHasNothingRead() async throws {
        let session = try await host.createSession(of: "first-launch")
        let feed = try await session.feed()
        #expect(feed.items.count == 4)
        #expect(feed.items.allSatisfy { !$0.isRead })
        #expect(try await session.keyValueKeys() == [])
    }

    @Test func emptyFeedHasNoItemsAndNoError() async throws {
        let feed = try await host.createSession(of: "empty-feed").feed()
        #expect(feed.items.isEmpty)
        #expect(feed.error == nil)
        #expect(feed.lastRefresh == "2026-11-01T09:00:00Z")
    }

    @Test func serverErrorIsPresented() async throws {
        let feed = try await host.createSession(of: "server-error").feed()
        #expect(feed.items.isEmpty)
        #expect(feed.error == "The feed server answered 500.")
        #expect(feed.lastRefresh == nil)
    }

    @Test func malformedFeedIsPresented() async throws {
        let feed = try await host.createSession(of: "malformed-feed").feed()
        #expect(feed.items.isEmpty)
        #expect(feed.error == "The feed could not be read: it is not a valid JSON Feed.")
    }

    @Test func offlineGivesTheTransportErrorAndJournalsTheMiss() async throws {
        let session = try await host.createSession(of: "offline")
        let feed = try await session.feed()
        #expect(feed.error == "Could not load the feed: The network is offline.")
        let journal = await session.requestJournal()
        #expect(journal.entries.count == 1)
        #expect(journal.unmatched.first?.fault == "offline")
        #expect(journal.unmatched.first?.url == "https://www.cocoawithlove.com/feed.json")
    }

    @Test func ratingsSignedOutSignsInAndRates() async throws {
        let session = try await host.createSession(of: "ratings-signed-out")
        #expect(try await session.ratings().user == nil)
        let wrong = try await session.perform("signIn", arguments: .object(["user": "alice", "password": "guess"]))
        #expect(try wrong.decoded(as: RatingsView.self).error == "You were signed out: Unknown user or wrong password.")
        let signedIn = try await session.perform("signIn", arguments: .object(["user": "alice", "password": "correct horse"]))
        #expect(try signedIn.decoded(as: RatingsView.self).user == "alice")
        #expect(try await session.keyValue("session") == .object(["user": "alice", "token": "tok-alice-1"]))
        let rated = try await session.perform("rate", arguments: .object(["driver": 5, "bus": 4]))
        #expect(try rated.decoded(as: RatingsView.self).lastSubmitted == RatingsView.Submission(driver: 5, bus: 4))
        let posted = await session.requestJournal().entries.last
        #expect(posted?.route == "rate")
        #expect(posted?.body == #"{"bus":4,"driver":5}"#)
        #expect(posted?.headers.contains("Authorization: Bearer tok-alice-1") == true)
    }

    @Test func ratingsSignedInFetchesTheRating() async throws {
        let session = try await host.createSession(of: "ratings-signed-in")
        #expect(try await session.ratings().user == "alice")
        let state = try await session.perform("fetchRating").decoded(as: RatingsView.self)
        #expect(state.rating == RatingsView.Rating(average: 4.5, count: 12))
        #expect(state.error == nil)
        #expect(state.isBusy == false)
    }

    @Test func ratingsExpiredTokenSignsOutWithTheServersMessage() async throws {
        let session = try await host.createSession(of: "ratings-expired-token")
        #expect(try await session.ratings().user == "alice")
        let state = try await session.perform("fetchRating").decoded(as: RatingsView.self)
        #expect(state.user == nil)
        #expect(state.error == "You were signed out: Your token expired at 2026-11-01T08:00:00Z; sign in again.")
        #expect(try await session.keyValueKeys() == [])
    }
}
