import FeedReader
import Foundation
import Hummingbird
import LiveServices
import Services
import Testing

/// The same FeedReader Model the scenarios drive, built on the live services as an application would build it.
@Suite struct FeedReaderLiveTests {
    @Test func feedReaderLoadsAFeedFromARealServerAndKeepsReadMarksOnDisk() async throws {
        let router = Router()
        router.get("feed.json") { _, _ -> Response in
            let feed = #"{"version":"https://jsonfeed.org/version/1.1","title":"Loopback","items":[{"id":"1","url":"https://example.org/1","title":"One"}]}"#
            return Response(status: .ok, headers: [.contentType: "application/feed+json"], body: .init(byteBuffer: ByteBuffer(string: feed)))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feedreader-\(UUID().uuidString).sqlite").path
        try await withLoopbackServer(router) { origin in
            let network = LiveNetwork(configuration: .init(forward: ["https://www.cocoawithlove.com": origin]))
            let store = try await SQLiteKeyValueStore.open(path: path)
            let model = FeedReader(services: ModelServices(network: network, keyValue: store, clock: SystemClock(), random: SystemRandom()))
            await model.perform(.reload)
            await model.perform(.setIsRead(url: "https://example.org/1", value: true))
            let state = await model.state
            #expect(state.items.map(\.title) == ["One"])
            #expect(state.items.map(\.isRead) == [true])
            #expect(try await store.value([String].self, forKey: FeedReader.readItemsKey) == ["https://example.org/1"])
            await network.shutdown()
            await store.close()
        }
    }
}
