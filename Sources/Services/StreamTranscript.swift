public import Foundation
import Synchronization

/// What a streamed answer delivered, as a session's journal keeps it in the request's ``NetworkExchange/stream``:
/// every chunk with the virtual instant it reached the Model, and how the stream stands.
///
/// Chunks are appended in place (the journal entry is updated at every chunk), so a stream of many events costs each
/// event once, not the whole transcript again; copies taken earlier keep reading the chunks they had.
public struct StreamTranscript: Sendable, Hashable, Codable {
    /// What the chunks are.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Server-sent events, one per chunk.
        case events
        /// Chunks of any other body.
        case chunks
        /// A WebSocket conversation: messages both ways.
        case webSocket
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

    /// The chunks delivered, oldest first.
    public var chunks: [StreamChunk] { storage.fields.log.prefix(delivered) }

    /// Records `chunk` as delivered.
    public mutating func append(_ chunk: StreamChunk) {
        update { fields in
            // Another copy appended past this one's end: this copy goes on with a log of its own.
            if !fields.log.append(chunk, at: fields.delivered) {
                fields.log = ChunkLog(fields.log.prefix(fields.delivered) + [chunk])
            }
            fields.delivered += 1
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.state == rhs.state && lhs.openedAt == rhs.openedAt && lhs.kind == rhs.kind && lhs.fault == rhs.fault && lhs.close == rhs.close
            && lhs.pending == rhs.pending && lhs.nextAt == rhs.nextAt && lhs.delivered == rhs.delivered
            && (lhs.storage.fields.log === rhs.storage.fields.log || lhs.chunks == rhs.chunks)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(delivered)
        hasher.combine(chunks.last)
    }

    private enum CodingKeys: String, CodingKey { case state, openedAt, kind, fault, close, pending, nextAt, delivered, chunks }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let chunks = try container.decode([StreamChunk].self, forKey: .chunks)
        storage = Storage(Fields(
            state: try container.decode(State.self, forKey: .state), openedAt: try container.decode(Date.self, forKey: .openedAt),
            kind: try container.decode(Kind.self, forKey: .kind), fault: try container.decodeIfPresent(String.self, forKey: .fault),
            close: try container.decodeIfPresent(WebSocketClose.self, forKey: .close), pending: try container.decode(Int.self, forKey: .pending),
            nextAt: try container.decodeIfPresent(Date.self, forKey: .nextAt), delivered: chunks.count, log: ChunkLog(chunks)))
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
        try container.encode(chunks, forKey: .chunks)
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

/// The chunks, shared by the copies of one transcript; only appended to, so a copy's prefix never changes.
private final class ChunkLog: Sendable {
    private let chunks: Mutex<[StreamChunk]>
    init(_ chunks: [StreamChunk]) { self.chunks = Mutex(chunks) }

    /// Appends `chunk` when the log holds exactly `count` chunks; false when another copy has appended already.
    func append(_ chunk: StreamChunk, at count: Int) -> Bool {
        chunks.withLock { chunks in
            guard chunks.count == count else { return false }
            chunks.append(chunk)
            return true
        }
    }

    func prefix(_ count: Int) -> [StreamChunk] { chunks.withLock { Array($0.prefix(count)) } }
}
