public import Foundation
public import Services

/// `GET /v1/sessions/{id}/streams`: the streamed answers open now, oldest first.
public struct StreamListBody: Codable, Sendable, Hashable {
    /// The open streams.
    public var streams: [StreamBody]
    /// A list of `streams`.
    public init(streams: [StreamBody]) {
        self.streams = streams
    }
}

/// One open stream: the request that opened it and how far it has got.
public struct StreamBody: Codable, Sendable, Hashable {
    /// The stream's number: its request's journal sequence number. Push into it and close it by this number.
    public var stream: Int
    /// The route that answers with it.
    public var route: String?
    /// The request's method.
    public var method: String
    /// The request's URL.
    public var url: String
    /// The status its head carried.
    public var status: Int?
    /// True for a stream relayed from the real server (a live route, or a live or record scenario), which cannot be
    /// pushed into or closed; absent for a scripted one.
    public var live: Bool?
    /// `events` for server-sent events (a `text/event-stream` answer), `webSocket` for a WebSocket, else `chunks`.
    public var kind: StreamTranscript.Kind
    /// When the request arrived, on the session's clock.
    public var requestedAt: Date
    /// When its head arrived and it opened: the request's time plus the answer's delay.
    public var openedAt: Date
    /// Chunks (events) the Model has read.
    public var delivered: Int
    /// Chunks scripted or pushed that the Model has not read yet.
    public var pending: Int
    /// When the next scripted chunk is due, on the session's clock; absent when none is.
    public var nextAt: Date?
    /// `open`, or how it ended: `closed`, `dropped` (with `fault`) or `cancelled` (the Model let go).
    public var state: StreamTranscript.State
    /// For a dropped stream, the transport error the Model's read threw.
    public var fault: String?
    /// For a closed WebSocket, its close frame.
    public var close: WebSocketClose?
    /// The chunk delivered last, with its instant; absent before the first.
    public var lastChunk: StreamChunk?

    /// The stream `exchange` opened; nil when `exchange` is not a stream's.
    public init?(_ exchange: NetworkExchange) {
        guard let transcript = exchange.stream else { return nil }
        stream = exchange.sequence
        route = exchange.route
        method = exchange.method
        url = exchange.url
        status = exchange.status
        live = exchange.live
        kind = transcript.kind
        requestedAt = exchange.time
        openedAt = transcript.openedAt
        delivered = transcript.delivered
        pending = transcript.pending
        nextAt = transcript.nextAt
        state = transcript.state
        fault = transcript.fault
        close = transcript.close
        lastChunk = transcript.lastChunk
    }
}

/// `POST /v1/sessions/{id}/streams/{stream}/push`: what the server sends now. An event (`data`, with `event`, `id`
/// and `retry`), or `text` sent exactly as written.
public struct PushToStreamRequest: Codable, Sendable, Hashable {
    /// The event's data; lines are sent as `data:` lines.
    public var data: String?
    /// The event's type.
    public var event: String?
    /// The event's id.
    public var id: String?
    /// The reconnection time it sets, in milliseconds.
    public var retry: Int?
    /// Raw text, sent exactly as written, instead of an event.
    public var text: String?

    /// A push of an event or of raw text.
    public init(data: String? = nil, event: String? = nil, id: String? = nil, retry: Int? = nil, text: String? = nil) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
        self.text = text
    }
}

/// `POST /v1/sessions/{id}/streams/{stream}/close`: the server ends the stream (a WebSocket with a close frame), or it
/// breaks off with `fault`.
public struct CloseStreamRequest: Codable, Sendable, Hashable {
    /// The transport error the Model's read throws (`connectionReset`, `timeout`…); absent for a clean close.
    public var fault: String?
    /// For a WebSocket: the close frame's code, 1000 unless given.
    public var code: Int?
    /// For a WebSocket: the close frame's reason.
    public var reason: String?
    /// A close (with a frame, for a WebSocket), or a drop with `fault`.
    public init(fault: String? = nil, code: Int? = nil, reason: String? = nil) {
        self.fault = fault
        self.code = code
        self.reason = reason
    }
}
