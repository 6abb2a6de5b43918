public import Foundation
import Synchronization

/// What a streamed answer delivered, as a session's journal keeps it in the request's ``NetworkExchange/stream``:
/// its chunks with the virtual instant each reached the Model, and how the stream stands.
///
/// Bounded in bytes: a transcript keeps its first chunks up to ``keptBytes`` / 2 and its newest up to as much, and
/// counts the chunks between as ``elided`` (a reply of 100,000 chunks once held 9.3 MB in one journal entry).
/// Chunks are appended in place (the journal entry is updated at every chunk), so a stream of many events costs each
/// event once, not the whole transcript again.
public struct StreamTranscript: Sendable, Hashable, Codable {
    /// What the chunks are.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Server-sent events, one per chunk.
        case events
        /// Chunks of any other body.
        case chunks
        /// A WebSocket conversation: messages both ways.
        case webSocket
        /// A gRPC call: its messages both ways as JSON, its status as ``StreamTranscript/close``.
        case rpc
    }

    /// How the stream stands.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// Still delivering, or waiting for its next chunk.
        case open
        /// The server ended it (its script ran out, or a test closed it).
        case closed
        /// It broke off with a transport error (``StreamTranscript/fault``).
        case dropped
        /// The Model let go of it, or its task was cancelled.
        case cancelled
    }

    /// How the stream stands.
    public var state: State {
        get { storage.fields.state }
        set { update { $0.state = newValue } }
    }
    /// When its head arrived and it opened, on the session's clock (its request's time plus the answer's delay).
    public var openedAt: Date {
        get { storage.fields.openedAt }
        set { update { $0.openedAt = newValue } }
    }
    /// `events` for server-sent events (a `text/event-stream` head), `webSocket` for a WebSocket, `chunks` for any
    /// other streamed body.
    public var kind: Kind {
        get { storage.fields.kind }
        set { update { $0.kind = newValue } }
    }
    /// For a dropped stream, the transport error the Model's read threw.
    public var fault: String? {
        get { storage.fields.fault }
        set { update { $0.fault = newValue } }
    }
    /// For a closed WebSocket, the close frame (the server's, or the Model's when it closed first).
    public var close: WebSocketClose? {
        get { storage.fields.close }
        set { update { $0.close = newValue } }
    }
    /// Scripted chunks not yet delivered.
    public var pending: Int {
        get { storage.fields.pending }
        set { update { $0.pending = newValue } }
    }
    /// When the next scripted chunk is due, on the session's clock; nil when none is.
    public var nextAt: Date? {
        get { storage.fields.nextAt }
        set { update { $0.nextAt = newValue } }
    }
    /// The number of chunks delivered.
    public var delivered: Int { storage.fields.delivered }
    /// The most bytes of chunk text a transcript keeps: half for its first chunks, half for its newest.
    public static let keptBytes = 64 * 1024

    /// The fields, behind one reference: every journal entry carries an optional transcript, so it costs a request
    /// that is not streamed one word, not a hundred bytes in every copy and every async frame that holds one.
    private struct Fields {
        var state: State
        var openedAt: Date
        var kind: Kind
        var fault: String?
        var close: WebSocketClose?
        var pending: Int
        var nextAt: Date?
        var delivered: Int
        var log: ChunkLog
    }

    // Sendable by hand: its fields change only through a transcript that holds the one reference (copy on write).
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private mutating func update(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        change(&storage.fields)
    }

    /// Creates the transcript of a stream just opened.
    public init(kind: Kind, openedAt: Date, pending: Int, nextAt: Date?) {
        storage = Storage(Fields(state: .open, openedAt: openedAt, kind: kind, pending: pending, nextAt: nextAt, delivered: 0,
                                 log: ChunkLog([])))
    }

    /// Whether the stream has delivered a chunk or ended: its journal entry exists already and is updated in place.
    public var hasProgressed: Bool { delivered > 0 || state != .open }

    /// The chunks kept, oldest first: the first ones, then (after ``elided`` more) the newest.
    public var chunks: [StreamChunk] { storage.fields.log.kept(delivered).chunks }
    /// How many chunks were delivered but not kept, between the first ones and the newest (0 for a short stream).
    public var elided: Int { storage.fields.log.kept(delivered).elided }
    /// The index in ``chunks`` where the elided ones were: the count of first chunks kept.
    public var elidedAt: Int? {
        let kept = storage.fields.log.kept(delivered)
        return kept.elided > 0 ? kept.headCount : nil
    }
    /// The chunk delivered last.
    public var lastChunk: StreamChunk? { storage.fields.log.chunk(at: delivered - 1) }

    /// The bytes of the chunks kept (at most ``keptBytes`` and the newest chunk), which a journal counts as its entry's.
    package var keptTextBytes: Int { storage.fields.log.keptBytes }

    /// Records `chunk` as delivered.
    public mutating func append(_ chunk: StreamChunk) {
        update { fields in
            // Another copy appended past this one's end: this copy goes on with a log of its own.
            if !fields.log.append(chunk, at: fields.delivered) {
                fields.log = fields.log.copy(upTo: fields.delivered)
                _ = fields.log.append(chunk, at: fields.delivered)
            }
            fields.delivered += 1
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.state == rhs.state && lhs.openedAt == rhs.openedAt && lhs.kind == rhs.kind && lhs.fault == rhs.fault && lhs.close == rhs.close
            && lhs.pending == rhs.pending && lhs.nextAt == rhs.nextAt && lhs.delivered == rhs.delivered
            && (lhs.storage.fields.log === rhs.storage.fields.log || lhs.storage.fields.log.kept(lhs.delivered) == rhs.storage.fields.log.kept(rhs.delivered))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(delivered)
        hasher.combine(lastChunk)
    }

    private enum CodingKeys: String, CodingKey { case state, openedAt, kind, fault, close, pending, nextAt, delivered, chunks, elided, elidedAt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let chunks = try container.decode([StreamChunk].self, forKey: .chunks)
        let elided = try container.decodeIfPresent(Int.self, forKey: .elided) ?? 0
        let elidedAt = try container.decodeIfPresent(Int.self, forKey: .elidedAt) ?? chunks.count
        let log = ChunkLog([])
        // The elided chunks stand as gaps: what was kept keeps its place, and the count of what was delivered.
        for (index, chunk) in chunks.enumerated() { _ = log.append(chunk, at: index < elidedAt ? index : index + elided) }
        storage = Storage(Fields(
            state: try container.decode(State.self, forKey: .state), openedAt: try container.decode(Date.self, forKey: .openedAt),
            kind: try container.decode(Kind.self, forKey: .kind), fault: try container.decodeIfPresent(String.self, forKey: .fault),
            close: try container.decodeIfPresent(WebSocketClose.self, forKey: .close), pending: try container.decode(Int.self, forKey: .pending),
            nextAt: try container.decodeIfPresent(Date.self, forKey: .nextAt), delivered: chunks.count + elided, log: log))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(openedAt, forKey: .openedAt)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(fault, forKey: .fault)
        try container.encodeIfPresent(close, forKey: .close)
        try container.encode(pending, forKey: .pending)
        try container.encodeIfPresent(nextAt, forKey: .nextAt)
        try container.encode(delivered, forKey: .delivered)
        let kept = storage.fields.log.kept(delivered)
        try container.encode(kept.chunks, forKey: .chunks)
        if kept.elided > 0 {
            try container.encode(kept.elided, forKey: .elided)
            try container.encode(kept.headCount, forKey: .elidedAt)
        }
    }
}

/// One chunk a stream delivered: for server-sent events, one event in the wire format.
public struct StreamChunk: Sendable, Hashable, Codable {
    /// When it reached the Model, on the session's clock.
    public var time: Date
    /// Its bytes as UTF-8 text (invalid bytes replaced).
    public var text: String
    /// True when a test or presenter pushed it through the control API, rather than the scenario's script.
    public var pushed: Bool?
    /// For a WebSocket: true for a message the Model sent (absent for the server's).
    public var sent: Bool?
    /// For a WebSocket: true for a binary message, whose `text` is then its bytes in base64.
    public var binary: Bool?

    /// Creates a chunk.
    public init(time: Date, text: String, pushed: Bool? = nil, sent: Bool? = nil, binary: Bool? = nil) {
        self.time = time
        self.text = text
        self.pushed = pushed
        self.sent = sent
        self.binary = binary
    }
}

/// The chunks, shared by the copies of one transcript and only appended to: the first up to half of
/// ``StreamTranscript/keptBytes`` are kept for good, and the newest up to as much; older ones past the first are let go.
/// A copy taken earlier reads the kept chunks up to its own count (fewer of its newest, once later ones pushed them out).
private final class ChunkLog: Sendable {
    private struct Chunks {
        var head: [StreamChunk] = []
        var headBytes = 0
        /// Whether the head has stopped taking chunks (one did not fit).
        var headFull = false
        /// The newest chunks, oldest first, from `tail[tailStart]` on; the one there is chunk number `tailFirst`.
        var tail: [StreamChunk] = []
        var tailStart = 0
        var tailFirst = 0
        var tailBytes = 0
        /// The number of chunks appended (the next one's number).
        var count = 0
    }

    private let chunks = Mutex(Chunks())
    private static let half = StreamTranscript.keptBytes / 2

    init(_ chunks: [StreamChunk]) {
        for (index, chunk) in chunks.enumerated() { _ = append(chunk, at: index) }
    }

    /// Appends `chunk` as number `number` when the log holds fewer; false when another copy has appended past
    /// `number` already. Numbers skipped (elided ones, read back from JSON) count as delivered and not kept.
    func append(_ chunk: StreamChunk, at number: Int) -> Bool {
        chunks.withCheckedLock { log in
            guard log.count <= number else { return false }
            let bytes = chunk.text.utf8.count
            if !log.headFull, number == log.head.count, log.head.isEmpty || log.headBytes + bytes <= Self.half {
                log.head.append(chunk)
                log.headBytes += bytes
            } else {
                log.headFull = true
                if log.tail.count == log.tailStart { log.tailFirst = number }
                if number != log.tailFirst + log.tail.count - log.tailStart {
                    // A skip: the tail starts again at this chunk.
                    log.tail = []
                    log.tailStart = 0
                    log.tailBytes = 0
                    log.tailFirst = number
                }
                log.tail.append(chunk)
                log.tailBytes += bytes
                // The newest always stays; older ones go once the tail is over its half.
                while log.tailBytes > Self.half, log.tail.count - log.tailStart > 1 {
                    log.tailBytes -= log.tail[log.tailStart].text.utf8.count
                    log.tailStart += 1
                    log.tailFirst += 1
                }
                if log.tailStart > 64, log.tailStart * 2 > log.tail.count {
                    log.tail.removeFirst(log.tailStart)
                    log.tailStart = 0
                }
            }
            log.count = number + 1
            return true
        }
    }

    /// What a transcript of `delivered` chunks shows: the first chunks, the newest still kept, and how many between.
    func kept(_ delivered: Int) -> (chunks: [StreamChunk], elided: Int, headCount: Int) {
        chunks.withCheckedLock { log in
            let head = Array(log.head.prefix(delivered))
            let newest = log.tail[log.tailStart...].enumerated()
                .filter { log.tailFirst + $0.offset < delivered }.map(\.element)
            return (head + newest, delivered - head.count - newest.count, head.count)
        }
    }

    /// The bytes of the chunks kept, the copies' too.
    var keptBytes: Int { chunks.withCheckedLock { $0.headBytes + $0.tailBytes } }

    /// Chunk number `number`, when it is kept.
    func chunk(at number: Int) -> StreamChunk? {
        chunks.withCheckedLock { log in
            if number < 0 { return nil }
            if number < log.head.count { return log.head[number] }
            let index = log.tailStart + number - log.tailFirst
            return index >= log.tailStart && index < log.tail.count ? log.tail[index] : nil
        }
    }

    /// A log of its own holding what a transcript of `delivered` chunks shows, for a copy that goes on from there.
    func copy(upTo delivered: Int) -> ChunkLog {
        let (kept, elided, headCount) = self.kept(delivered)
        let copy = ChunkLog([])
        for (index, chunk) in kept.enumerated() { _ = copy.append(chunk, at: index < headCount ? index : index + elided) }
        return copy
    }
}
