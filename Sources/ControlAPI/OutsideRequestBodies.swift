public import Foundation
public import Services

/// `POST /v1/sessions/{id}/network/requests`: a request to send through the session's network from outside, as its
/// Model's network service would send it.
public struct SendRequestBody: Codable, Sendable, Hashable {
    /// The HTTP method (`GET` when absent).
    public var method: String?
    /// The absolute `http` or `https` URL, query included.
    public var url: String
    /// Header fields as `Name: value` lines, in order, as the journal lists them.
    public var headers: [String]?
    /// The body as UTF-8 text.
    public var body: String?
    /// The body as base64, for bytes that are not text; give `body` or this, not both.
    public var bodyBase64: String?
    /// Whether the call waits for an answer that waits on the session's clock (true when absent); false answers at
    /// once with `pending` and the request's sequence number, to read later.
    public var wait: Bool?

    /// A request to send.
    public init(method: String? = nil, url: String, headers: [String]? = nil, body: String? = nil, bodyBase64: String? = nil,
                wait: Bool? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bodyBase64 = bodyBase64
        self.wait = wait
    }
}

/// What a request sent from outside got: the response, the transport error, or (while its answer waits on the
/// session's clock) `pending`; with its journal entry either way.
public struct SentRequestBody: Codable, Sendable, Hashable {
    /// The request's journal sequence number, which names it (`GET /v1/sessions/{id}/network/requests/{sequence}`).
    public var sequence: Int
    /// True while the answer waits on the session's clock; absent once it is delivered.
    public var pending: Bool?
    /// The response's status, when a response came.
    public var status: Int?
    /// The response's header fields as `name: value` lines, when a response came.
    public var headers: [String]?
    /// The response body as text, when a response came and its body is UTF-8 (absent when empty).
    public var body: String?
    /// The response body as base64, when a response came and its body is not UTF-8.
    public var bodyBase64: String?
    /// The transport error the request got instead of a response (`timeout`, `connectionRefused`, …).
    public var fault: String?
    /// What the transport error means, in words.
    public var message: String?
    /// The request's journal entry now: the route that answered, or the near misses of an unmatched request.
    public var journal: NetworkExchange?

    /// What a request got.
    public init(sequence: Int, pending: Bool? = nil, status: Int? = nil, headers: [String]? = nil, body: String? = nil,
                bodyBase64: String? = nil, fault: String? = nil, message: String? = nil, journal: NetworkExchange? = nil) {
        self.sequence = sequence
        self.pending = pending
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyBase64 = bodyBase64
        self.fault = fault
        self.message = message
        self.journal = journal
    }

    /// The response body's bytes (empty without a response).
    public var bodyData: Data {
        if let body { return Data(body.utf8) }
        return bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data()
    }
}
