public import Foundation
import HTTPTypes
public import Services

/// Model #1: a reader of one JSON Feed, with read marks kept in the key-value store and a refresh every 15 minutes.
public actor FeedReader: Model {
    public static let name = "FeedReader"
    public static let actionNames = ["reload", "setIsRead"]

    /// The feed this reader shows.
    public static let feedURL = URL(string: "https://www.cocoawithlove.com/feed.json")!
    /// The key-value key under which the read marks (an array of item URLs) are kept.
    public static let readItemsKey = "readItems"
    public static let keyValueKeys = [readItemsKey: "the URLs of the items marked read, an array of strings"]
    /// How much clock time passes between automatic refreshes.
    public static let refreshInterval: Duration = .seconds(15 * 60)

    /// What a client may ask of the reader.
    public enum Action: Decodable, Sendable {
        /// Fetch the feed now.
        case reload
        /// Mark the item at `url` read (`value: true`) or unread.
        case setIsRead(url: String, value: Bool)
    }

    private let services: ModelServices
    private var readItems: Set<String> = []
    private var feed: JSONFeed?
    public private(set) var state = FeedState()

    public init(services: ModelServices) {
        self.services = services
    }

    public func run() async {
        await loadReadItems()
        await reload()
        while !Task.isCancelled {
            do { try await services.clock.sleep(for: Self.refreshInterval) } catch { return }
            await reload()
        }
    }

    public func perform(_ action: Action) async {
        switch action {
        case .reload: await reload()
        case .setIsRead(let url, let value): await setIsRead(url: url, value: value)
        }
    }

    private func reload() async {
        state.isLoading = true
        defer { state.isLoading = false }
        await loadReadItems()
        do {
            let response = try await services.network.send(NetworkRequest(
                method: .get, url: Self.feedURL, headerFields: [.accept: "application/feed+json, application/json"]))
            guard (200..<300).contains(response.head.status.code) else {
                state.error = "The feed server answered \(response.head.status.codeAndReason)."
                return
            }
            feed = try JSONDecoder.services.decode(JSONFeed.self, from: response.body)
            state.error = nil
        } catch let error as TransportError {
            state.error = "Could not load the feed: \(error)"
            return
        } catch {
            state.error = "The feed could not be read: it is not a valid JSON Feed."
            return
        }
        state.lastRefresh = await services.clock.now()
        updateItems()
    }

    private func setIsRead(url: String, value: Bool) async {
        if value { readItems.insert(url) } else { readItems.remove(url) }
        do {
            try await services.keyValue.set(readItems.sorted(), forKey: Self.readItemsKey)
        } catch {
            state.error = "Could not save the read marks: \(error)"
        }
        updateItems()
    }

    /// Read marks may have been edited from outside (a client editing key-value state), so they are re-read.
    private func loadReadItems() async {
        do {
            readItems = Set(try await services.keyValue.value([String].self, forKey: Self.readItemsKey) ?? [])
        } catch {
            state.error = "The saved read marks are unreadable; they were ignored."
        }
    }

    private func updateItems() {
        state.title = feed?.title
        state.items = (feed?.items ?? []).map { item in
            let url = item.url ?? item.id
            return FeedItem(id: item.id, url: url, title: item.title ?? "(untitled)",
                            datePublished: item.datePublished, summary: item.summary, isRead: readItems.contains(url))
        }
    }
}
