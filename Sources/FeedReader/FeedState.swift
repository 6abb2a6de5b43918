public import Foundation

/// Everything a client sees of a ``FeedReader``.
public struct FeedState: Codable, Sendable, Hashable {
    /// The feed's title, once loaded.
    public var title: String?
    /// The feed's items, newest first as the feed lists them.
    public var items: [FeedItem] = []
    /// True while a fetch is in flight.
    public var isLoading = false
    /// A sentence to show the user about the last failure, or nil.
    public var error: String?
    /// When the feed was last fetched successfully, on the Model's clock.
    public var lastRefresh: Date?

    /// An empty state, before anything is loaded.
    public init() {}
}

/// One item of the feed as the reader shows it.
public struct FeedItem: Codable, Sendable, Hashable {
    public var id: String
    public var url: String
    public var title: String
    /// As the feed gave it (RFC 3339 text).
    public var datePublished: String?
    public var summary: String?
    /// Whether the user has marked it read.
    public var isRead: Bool
}
