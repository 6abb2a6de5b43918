public import Foundation
public import Services

/// A session's journal of network exchanges, bounded in entries and in bytes: past either, the oldest entries are
/// dropped and counted.
public struct RequestJournal: Sendable, Hashable, Codable {
    /// The default bound.
    public static let defaultCapacity = 1_000

    /// The entries kept, oldest first.
    public private(set) var entries: [NetworkExchange] = []
    /// How many entries were dropped to stay within ``capacity`` or ``byteCapacity`` since the journal was last cleared.
    public private(set) var dropped = 0
    /// The most entries kept.
    public let capacity: Int
    /// The most bytes the entries keep (``HeldBytes/journal``); the newest entry is kept whatever its size.
    public let byteCapacity: Int
    /// The bytes the entries keep now.
    public private(set) var bytes = 0
    /// Each entry's bytes as counted when it was kept: a stream's entries share their chunks, so an entry read
    /// again later would count what a newer one added.
    private var entryBytes: [Int] = []
    /// How many requests each route answered, live routes included: counted as they arrive and never dropped, so
    /// they stay exact past ``capacity``.
    public private(set) var answered: [String: Int] = [:]
    /// How many requests matched no route and got the scenario's `unmatched` error.
    public private(set) var unmatchedCount = 0
    /// How many requests no route answered that went to the live network (a `live` or `record` scenario).
    public private(set) var passedThroughCount = 0

    /// An empty journal.
    public init(capacity: Int = RequestJournal.defaultCapacity, byteCapacity: Int = HostLimits.default.journalBytes) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
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
        if entries.count == capacity { dropOldest(1) }
        let size = exchange.heldBytes
        entries.append(exchange)
        entryBytes.append(size)
        bytes += size
        keepWithinBytes()
    }

    /// Drops the oldest entries while the journal holds more than ``byteCapacity``, keeping the newest.
    private mutating func keepWithinBytes() {
        guard bytes > byteCapacity else { return }
        var over = bytes - byteCapacity
        var count = 0
        while over > 0, count < entries.count - 1 {
            over -= entryBytes[count]
            count += 1
        }
        dropOldest(count)
    }

    private mutating func dropOldest(_ count: Int) {
        bytes -= entryBytes.prefix(count).reduce(0, +)
        entries.removeFirst(count)
        entryBytes.removeFirst(count)
        dropped += count
    }

    /// Puts `exchange` in the place of the entry at `index`, which it updates.
    private mutating func replace(at index: Int, with exchange: NetworkExchange) {
        let size = exchange.heldBytes
        bytes += size - entryBytes[index]
        entries[index] = exchange
        entryBytes[index] = size
        keepWithinBytes()
    }

    /// Replaces the pending entry `exchange` completes; false when there is none (it was dropped, cleared, or
    /// belongs to the session before a reset).
    mutating func complete(_ exchange: NetworkExchange) -> Bool {
        guard let index = entries.lastIndex(where: {
            $0.sequence == exchange.sequence && $0.pending == true && $0.url == exchange.url && $0.time == exchange.time
        }) else { return false }
        replace(at: index, with: exchange)
        return true
    }

    /// Replaces the entry of the stream `exchange` updates; false when there is none (dropped, cleared, or of the
    /// session before a reset).
    mutating func update(_ exchange: NetworkExchange) -> Bool {
        guard let index = entries.lastIndex(where: {
            $0.sequence == exchange.sequence && $0.stream != nil && $0.url == exchange.url && $0.time == exchange.time
        }) else { return false }
        replace(at: index, with: exchange)
        return true
    }

    mutating func clear() {
        entries.removeAll()
        entryBytes.removeAll()
        bytes = 0
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
