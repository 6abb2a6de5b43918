import Services
import Synchronization

/// Values worked out once from their keys and given back while they stay among the recent ones, shared across
/// threads: the engine's tables of decoded actions, encoded states, resolved routes and parsed states.
///
/// Bounded by a count and a byte total. Entries live in two generations of half the bounds each: new entries go
/// to the young one, and a hit in the old one moves the entry to the young one. When the young generation is
/// full it becomes the old one and the old one is dropped, so what is used keeps its place and only entries
/// unused for a whole generation go; clearing a table whole made every hot entry a miss again at once. A value
/// that alone costs more than a generation's bytes is given back but not kept.
package final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Generation {
        var entries: [Key: (value: Value, bytes: Int)] = [:]
        var bytes = 0
    }

    private struct Tables {
        var young = Generation()
        var old = Generation()
        var figures: MemoFigures
    }

    private let tables: Mutex<Tables>
    /// Each generation's bounds: half the memo's.
    private let generationCount: Int
    private let generationBytes: Int
    private let cost: @Sendable (Key, Value) -> Int

    /// A memo of at most `count` entries and `bytes` bytes as `cost` counts them (by default entries are not
    /// counted in bytes); `name` labels its figures.
    package init(_ name: String, count: Int, bytes: Int = .max, cost: @escaping @Sendable (Key, Value) -> Int = { _, _ in 0 }) {
        precondition(count >= 2 && bytes >= 2, "a memo holds two generations: give it room for at least two entries")
        tables = Mutex(Tables(figures: MemoFigures(name: name)))
        generationCount = count / 2
        generationBytes = bytes / 2
        self.cost = cost
    }

    /// The value for `key`: the one kept, or what `make` gives, then kept.
    package func value<E: Error>(for key: Key, _ make: () throws(E) -> Value) throws(E) -> Value {
        if let value = tables.withCheckedLock({ Self.lookUp(key, in: &$0, bounds: (generationCount, generationBytes)) }) { return value }
        let value = try make()
        let bytes = cost(key, value)
        tables.withCheckedLock { Self.keep(key, (value, bytes), in: &$0, bounds: (generationCount, generationBytes)) }
        return value
    }

    /// Forgets every entry (the figures stay): what they were made from changed.
    package func removeAll() {
        tables.withCheckedLock { tables in
            tables.young = Generation()
            tables.old = Generation()
        }
    }

    package var figures: MemoFigures {
        tables.withCheckedLock { tables in
            var figures = tables.figures
            figures.entries = tables.young.entries.count + tables.old.entries.count
            figures.bytes = tables.young.bytes + tables.old.bytes
            return figures
        }
    }

    private static func lookUp(_ key: Key, in tables: inout Tables, bounds: (count: Int, bytes: Int)) -> Value? {
        if let entry = tables.young.entries[key] {
            tables.figures.hits += 1
            return entry.value
        }
        guard let entry = tables.old.entries.removeValue(forKey: key) else {
            tables.figures.misses += 1
            return nil
        }
        tables.figures.hits += 1
        tables.old.bytes -= entry.bytes
        keep(key, entry, in: &tables, bounds: bounds)
        return entry.value
    }

    private static func keep(_ key: Key, _ entry: (value: Value, bytes: Int), in tables: inout Tables, bounds: (count: Int, bytes: Int)) {
        guard entry.bytes <= bounds.bytes else { return }
        // Another thread may have made the same entry meanwhile: replace it and its bytes.
        if let earlier = tables.young.entries.removeValue(forKey: key) { tables.young.bytes -= earlier.bytes }
        if tables.young.entries.count >= bounds.count || tables.young.bytes + entry.bytes > bounds.bytes {
            tables.old = tables.young
            tables.young = Generation()
            tables.figures.evictions += 1
        }
        tables.young.entries[key] = entry
        tables.young.bytes += entry.bytes
    }
}

/// What a ``BoundedMemo`` has done since it was made: what the benchmarks read to tell whether it pays.
package struct MemoFigures: Sendable, Equatable, CustomStringConvertible {
    package var name: String
    package var hits = 0
    package var misses = 0
    /// Times the young generation was full, so the old one and what it held were dropped.
    package var evictions = 0
    package var entries = 0
    package var bytes = 0

    package var description: String {
        "\(name): \(hits) hits, \(misses) misses, \(evictions) generations dropped, \(entries) entries of \(bytes) bytes"
    }
}
