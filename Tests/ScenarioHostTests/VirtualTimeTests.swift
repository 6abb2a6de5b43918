import Fakes
import Foundation
import ScenarioHost
import Services
import Testing

/// Virtual time through the host: clock moves return only after the Model has done what fell due.
@Suite struct VirtualTimeTests {
    let host = makeHost()

    @Test func advancingFifteenMinutesRefreshesExactlyOnceAndShowsTheNewItem() async throws {
        let session = try await host.createSession(of: "feed-updates")
        #expect(try await session.feed().items.count == 4)
        #expect(await session.requestJournal().entries.count == 1)

        try await session.advanceClock(by: .seconds(14 * 60 + 59))
        #expect(await session.requestJournal().entries.count == 1)

        try await session.advanceClock(by: .seconds(1))
        let feed = try await session.feed()
        #expect(await session.requestJournal().entries.count == 2)
        #expect(feed.items.count == 5)
        #expect(feed.items.first?.title == "Virtual time for tests")
        #expect(feed.lastRefresh == "2026-11-01T09:15:00Z")
    }

    @Test func advancingAnHourRefreshesFourTimesInOrder() async throws {
        let session = try await host.createSession(of: "feed-updates")
        try await session.advanceClock(by: .seconds(3600))
        let times = await session.requestJournal().entries.map { $0.time.timeIntervalSince1970 }
        let start = try #require(times.first)
        #expect(times.map { $0 - start } == [0, 900, 1800, 2700, 3600])
    }

    @Test func slowNetworkShowsLoadingUntilTheClockPassesTheDelay() async throws {
        let session = try await host.createSession(of: "slow-network")
        var feed = try await session.feed()
        #expect(feed.isLoading)
        #expect(feed.items.isEmpty)
        #expect(await session.requestJournal().entries.map(\.route) == ["feed"])

        try await session.advanceClock(by: .milliseconds(1_999))
        #expect(try await session.feed().isLoading)

        try await session.advanceClock(by: .milliseconds(1))
        feed = try await session.feed()
        #expect(!feed.isLoading)
        #expect(feed.items.count == 4)
        #expect(feed.lastRefresh == "2026-11-01T09:00:02Z")
    }

    @Test func settingTheClockForwardWakesWhatFallsDueAndBackwardWakesNothing() async throws {
        let session = try await host.createSession(of: "feed-updates")
        let start = try await session.now()
        try await session.setClock(to: start.addingTimeInterval(-3600))
        #expect(await session.requestJournal().entries.count == 1)
        let now = try await session.setClock(to: start.addingTimeInterval(15 * 60))
        #expect(now == start.addingTimeInterval(15 * 60))
        // The periodic sleep was set up for start + 15 min, so moving back an hour and then to it wakes it once.
        #expect(await session.requestJournal().entries.count == 2)
    }

    @Test func anActionWaitingOnTheClockReturnsWithTheLoadingState() async throws {
        let session = try await host.createSession(of: "slow-network")
        try await session.advanceClock(by: .seconds(2))
        let state = try await session.perform("reload").decoded(as: FeedView.self)
        #expect(state.isLoading)
        #expect(state.items.count == 4)
        try await session.advanceClock(by: .seconds(2))
        #expect(try await session.feed().isLoading == false)
        #expect(await session.requestJournal().entries.count == 2)
    }
}
