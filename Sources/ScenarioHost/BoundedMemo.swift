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
    /// Both generations and the counts, under one lock. Entries are stored bare and their bytes counted per
    /// generation, so a hit costs one dictionary lookup (the memos sit on an exploration's hot path).
    private struct Tables {
        var young: [Key: Value] = [:]
        var youngBytes = 0
        var old: [Key: Value] = [:]
        var oldBytes = 0
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    private let tables = Mutex(Tables())
    private let name: String
    /// Each generation's bounds: half the memo's.
    private let generationCount: Int
    private let generationBytes: Int
    private let cost: @Sendable (Key, Value) -> Int

    /// A memo of at most `count` entries and `bytes` bytes as `cost` counts them (by default entries are not
    /// counted in bytes); `name` labels its figures.
    package init(_ name: String, count: Int, bytes: Int = .max, cost: @escaping @Sendable (Key, Value) -> Int = { _, _ in 0 }) {
        precondition(count >= 2 && bytes >= 2, "a memo holds two generations: give it room for at least two entries")
        self.name = name
        generationCount = count / 2
        generationBytes = bytes / 2
        self.cost = cost
    }

    /// The value for `key`: the one kept, or what `make` gives, then kept.
    package func value<E: Error>(for key: Key, _ make: () throws(E) -> Value) throws(E) -> Value {
        let kept = tables.withCheckedLock { tables -> Value? in
            if let value = tables.young[key] {
                tables.hits += 1
                return value
            }
            guard let value = tables.old.removeValue(forKey: key) else {
                tables.misses += 1
                return nil
            }
            tables.hits += 1
            let bytes = cost(key, value)
            tables.oldBytes -= bytes
            keep(key, value, bytes: bytes, in: &tables)
            return value
        }
        if let kept { return kept }
        let value = try make()
        let bytes = cost(key, value)
        tables.withCheckedLock { keep(key, value, bytes: bytes, in: &$0) }
        return value
    }

    /// Forgets every entry (the figures stay): what they were made from changed.
    package func removeAll() {
        tables.withCheckedLock { tables in
            (tables.young, tables.youngBytes, tables.old, tables.oldBytes) = ([:], 0, [:], 0)
        }
    }

    package var figures: MemoFigures {
        tables.withCheckedLock { tables in
            MemoFigures(name: name, hits: tables.hits, misses: tables.misses, evictions: tables.evictions,
                        entries: tables.young.count + tables.old.count, bytes: tables.youngBytes + tables.oldBytes)
        }
    }

    private func keep(_ key: Key, _ value: Value, bytes: Int, in tables: inout Tables) {
        guard bytes <= generationBytes else { return }
        // Another thread may have made the same entry meanwhile: replace it and its bytes.
        if let earlier = tables.young.removeValue(forKey: key) { tables.youngBytes -= cost(key, earlier) }
        if tables.young.count >= generationCount || tables.youngBytes + bytes > generationBytes {
            (tables.old, tables.oldBytes) = (tables.young, tables.youngBytes)
            (tables.young, tables.youngBytes) = ([:], 0)
            tables.evictions += 1
        }
        tables.young[key] = value
        tables.youngBytes += bytes
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
