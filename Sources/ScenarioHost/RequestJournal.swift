public import Foundation
public import Services

/// A session's journal of network exchanges, bounded: when full, the oldest entry is dropped and counted.
public struct RequestJournal: Sendable, Hashable, Codable {
    /// The default bound.
    public static let defaultCapacity = 1_000

    /// The entries kept, oldest first.
    public private(set) var entries: [NetworkExchange] = []
    /// How many entries were dropped to stay within ``capacity`` since the journal was last cleared.
    public private(set) var dropped = 0
    /// The most entries kept.
    public let capacity: Int
    /// How many requests each route answered, live routes included: counted as they arrive and never dropped, so
    /// they stay exact past ``capacity``.
    public private(set) var answered: [String: Int] = [:]
    /// How many requests matched no route and got the scenario's `unmatched` error.
    public private(set) var unmatchedCount = 0
    /// How many requests no route answered that went to the live network (a `live` or `record` scenario).
    public private(set) var passedThroughCount = 0

    /// An empty journal.
    public init(capacity: Int = RequestJournal.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The entries whose request matched no route.
    public var unmatched: [NetworkExchange] { entries.filter(\.isUnmatched) }

    mutating func record(_ exchange: NetworkExchange) {
        if let route = exchange.route {
            answered[route, default: 0] += 1
        } else if exchange.isUnmatched {
            unmatchedCount += 1
        } else if exchange.live == true {
            passedThroughCount += 1
        }
        if entries.count == capacity {
            entries.removeFirst()
            dropped += 1
        }
        entries.append(exchange)
    }

    /// Replaces the pending entry `exchange` completes; false when there is none (it was dropped, cleared, or
    /// belongs to the session before a reset).
    mutating func complete(_ exchange: NetworkExchange) -> Bool {
        guard let index = entries.lastIndex(where: {
            $0.sequence == exchange.sequence && $0.pending == true && $0.url == exchange.url && $0.time == exchange.time
        }) else { return false }
        entries[index] = exchange
        return true
    }

    /// Replaces the entry of the stream `exchange` updates; false when there is none (dropped, cleared, or of the
    /// session before a reset).
    mutating func update(_ exchange: NetworkExchange) -> Bool {
        guard let index = entries.lastIndex(where: {
            $0.sequence == exchange.sequence && $0.stream != nil && $0.url == exchange.url && $0.time == exchange.time
        }) else { return false }
        entries[index] = exchange
        return true
    }

    mutating func clear() {
        entries.removeAll()
        dropped = 0
        answered = [:]
        unmatchedCount = 0
        passedThroughCount = 0
    }
}

/// A journal read with each entry already encoded as JSON (`JSONEncoder.services`), oldest first: what
/// `GET …/journal` answers is assembled from these bytes (``Session/encodedJournal(unmatchedOnly:)``).
public struct EncodedJournal: Sendable {
    /// Each entry's JSON, oldest first.
    public var entries: [Data]
    /// Entries dropped to stay within ``capacity`` since the journal was last cleared.
    public var dropped: Int
    /// The most entries the journal keeps.
    public var capacity: Int
}
