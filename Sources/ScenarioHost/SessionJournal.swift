import Foundation
import Services
import Synchronization

/// A session's journal, the requests the step under way caused, and the generation they belong to, behind a lock:
/// the Model's requests are journaled from the session's executor as they happen, without a hop onto the session's
/// actor (a hop costs two thread switches per request, and the session is not settled until the entry is in).
final class SessionJournal: Sendable {
    private struct State {
        var journal: RequestJournal
        var caused: [Int] = []
        var generation = 0
        /// Entries' JSON from the last read, by sequence number, each with the entry it encodes.
        var encodings: [Int: (entry: NetworkExchange, json: Data)] = [:]
        /// Counts every change to the journal, so that a read can tell whether the body it kept still shows it.
        var version = 0
        /// The body the last read of each kind assembled (every entry: false; the unmatched only: true), and the
        /// version it shows.
        var bodies: [Bool: (version: Int, body: any Sendable)] = [:]
    }

    /// What ``record(_:of:)`` did.
    enum Recorded: Equatable {
        /// The exchange belongs to a replaced generation (a reset or rewind stopped it): nothing was kept.
        case stale
        /// A delayed answer completed its pending entry (false: the entry was dropped or cleared meanwhile).
        case completed(Bool)
        /// A new entry.
        case added
        /// A stream delivered a chunk or ended, and its entry now says so (false: the entry was dropped or cleared).
        case streamed(Bool)
    }

    private let state: Mutex<State>
    /// Where the journal's bytes are counted.
    private let held: SessionBytes

    init(capacity: Int, byteCapacity: Int, held: SessionBytes) {
        state = Mutex(State(journal: RequestJournal(capacity: capacity, byteCapacity: byteCapacity)))
        self.held = held
    }

    /// The journal now.
    var journal: RequestJournal { state.withCheckedLock(\.journal) }

    /// The generation whose requests are journaled.
    var generation: Int { state.withCheckedLock(\.generation) }

    /// The journal sequence numbers recorded since the last step was kept, and forgets them: under one lock, so a
    /// request journaled meanwhile belongs to the next step instead of to neither.
    func takeCaused() -> [Int] {
        state.withCheckedLock { state in
            defer { state.caused = [] }
            return state.caused
        }
    }

    /// Starts a new generation (its requests alone are journaled from now on) and empties the journal.
    func startGeneration() {
        state.withCheckedLock { state in
            state.generation += 1
            state.journal.clear()
            state.version += 1
            state.encodings = [:]
            held.set(.journal, to: 0)
        }
    }

    func clear() {
        state.withCheckedLock { state in
            state.journal.clear()
            state.version += 1
            held.set(.journal, to: 0)
        }
    }

    /// The journal with each entry as its JSON (`JSONEncoder.services`), for reads: an entry is encoded once and
    /// kept while it stays in the journal unchanged, so a read of a full journal costs what copying it costs, not
    /// a thousand encodings (5 ms a read at the bound; BENCHMARKS.md, cost as work grows). What is kept is
    /// checked against the entry itself, so an entry a delayed answer completed is encoded again.
    func encoded(unmatchedOnly: Bool) -> EncodedJournal {
        encodedWithVersion(unmatchedOnly: unmatchedOnly).encoded
    }

    /// The journal's body for a read, as `assemble` writes it from the entries' JSON: assembled again only when the
    /// journal changed since the last read of the same kind, so a client polling an unchanged journal at its bound
    /// gets the kept body (the caller's own type: the server keeps the buffer it sends) rather than a thousand
    /// look-ups and a copy of every entry each time.
    func body<Body: Sendable>(unmatchedOnly: Bool, assemble: (EncodedJournal) -> Body) -> Body {
        let kept = state.withCheckedLock { state in
            state.bodies[unmatchedOnly].flatMap { $0.version == state.version ? $0.body as? Body : nil }
        }
        if let kept { return kept }
        let (encoded, version) = encodedWithVersion(unmatchedOnly: unmatchedOnly)
        let body = assemble(encoded)
        // Kept with the version it shows: a change meanwhile has moved the version on, and the next read assembles.
        state.withCheckedLock { $0.bodies[unmatchedOnly] = (version, body) }
        return body
    }

    private func encodedWithVersion(unmatchedOnly: Bool) -> (encoded: EncodedJournal, version: Int) {
        let (journal, known, version) = state.withCheckedLock { ($0.journal, $0.encodings, $0.version) }
        var kept: [Int: (entry: NetworkExchange, json: Data)] = [:]
        kept.reserveCapacity(journal.entries.count)
        var entries: [Data] = []
        for entry in journal.entries {
            let cached = known[entry.sequence].flatMap { $0.entry == entry ? $0.json : nil }
            guard !unmatchedOnly || entry.isUnmatched else {
                if let cached { kept[entry.sequence] = (entry, cached) }
                continue
            }
            let json = cached ?? (try? JSONEncoder.services.encode(entry)) ?? Data("null".utf8)
            kept[entry.sequence] = (entry, json)
            entries.append(json)
        }
        // Only entries still in the journal stay; a request journaled meanwhile is encoded at the next read.
        state.withCheckedLock { $0.encodings = kept }
        return (EncodedJournal(entries: entries, dropped: journal.dropped, capacity: journal.capacity), version)
    }

    func record(_ exchange: NetworkExchange, of generation: Int) -> Recorded {
        state.withCheckedLock { state in
            guard generation == state.generation else { return .stale }
            state.version += 1
            if state.caused.last != exchange.sequence { state.caused.append(exchange.sequence) }
            // Counted under the journal's lock, so two records cannot set the count out of order.
            defer { held.set(.journal, to: state.journal.bytes) }
            if exchange.stream?.hasProgressed == true { return .streamed(state.journal.update(exchange)) }
            if exchange.pending == false { return .completed(state.journal.complete(exchange)) }
            state.journal.record(exchange)
            return .added
        }
    }
}
