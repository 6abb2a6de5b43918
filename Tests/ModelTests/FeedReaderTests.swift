import Fakes
import FeedReader
import Foundation
import Services
import SessionRuntime
import Testing

@Suite struct FeedReaderTests {
    static let feed = #"{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"a","url":"https://x/a","title":"A"},{"id":"b","title":"B"}]}"#
    let route = Route(name: "feed", matcher: RequestMatcher(method: "GET", url: .exact("https://www.cocoawithlove.com/feed.json")),
                      outcomes: [answer(200, json: feed)])

    @Test func launchLoadsTheFeedAndTheReadMarks() async throws {
        let harness = await ModelHarness<FeedReader>(routes: [route], seed: ["readItems": Data(#"["https://x/a"]"#.utf8)])
        await harness.start()
        let state = await harness.model.state
        #expect(state.title == "T")
        #expect(state.items.map(\.url) == ["https://x/a", "b"])
        #expect(state.items.map(\.isRead) == [true, false])
        #expect(state.lastRefresh == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(await harness.journal.entries.first?.headers == ["Accept: application/feed+json, application/json"])
    }

    @Test func readMarksAreKeptUnderOneKey() async throws {
        let harness = await ModelHarness<FeedReader>(routes: [route])
        await harness.start()
        await harness.perform(.setIsRead(url: "b", value: true))
        await harness.perform(.setIsRead(url: "https://x/a", value: true))
        await harness.perform(.setIsRead(url: "b", value: false))
        #expect(await harness.store.keys() == ["readItems"])
        #expect(await harness.store.data(forKey: "readItems") == Data(#"["https://x/a"]"#.utf8))
        #expect(await harness.model.state.items.map(\.isRead) == [true, false])
    }

    @Test func itRefreshesEveryFifteenMinutesOfClockTime() async throws {
        let harness = await ModelHarness<FeedReader>(routes: [route])
        await harness.start()
        await harness.clock.advance(by: .seconds(45 * 60))
        #expect(await harness.journal.entries.count == 4)
        #expect(await harness.model.state.lastRefresh == Date(timeIntervalSince1970: 1_800_000_000 + 45 * 60))
    }

    @Test func anErrorKeepsTheItemsItHad() async throws {
        let flaky = Route(name: "feed", matcher: RequestMatcher(), outcomes: [answer(200, json: Self.feed), answer(503, json: "{}")])
        let harness = await ModelHarness<FeedReader>(routes: [flaky])
        await harness.start()
        await harness.perform(.reload)
        let state = await harness.model.state
        #expect(state.items.count == 2)
        #expect(state.error == "The feed server answered 503.")
        #expect(state.lastRefresh == Date(timeIntervalSince1970: 1_800_000_000))
    }
}
