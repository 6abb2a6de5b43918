package import Foundation
package import NIOCore

/// How a ``ControlClient`` reaches a daemon's control API: over its Unix socket (the default), or, for tests
/// that run the engine in their own process, straight to the API's responder with no socket at all.
package protocol ControlTransport: Sendable {
    /// Where requests go, for messages: a socket path, or `in-process`.
    var endpoint: String { get }
    /// Sends one request and returns its answer once the head has arrived; the body streams.
    /// - Throws: ``ScenarioClientError/daemonUnreachable(socket:reason:)`` when no daemon accepts the request,
    ///   ``ScenarioClientError/noAnswer(socket:reason:mayHaveBeenApplied:)`` when one accepts it but does not answer.
    func send(_ request: ControlRequest) async throws -> ControlResponse
}

/// One request of the control API.
package struct ControlRequest: Sendable {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    package var method: String
    /// The path with its percent-encoded segments, `/v1/sessions/s1/state`.
    package var path: String
    /// A JSON body, or nil.
    package var body: Data?
    /// The body's media type: `application/json`, or `application/merge-patch+json` for a `PATCH`.
    package var contentType: String
    /// True for an event stream, which never ends on its own (no time limit applies).
    package var streaming: Bool

    /// A request of `method` to `path`, with an optional JSON body.
    package init(method: String, path: String, body: Data? = nil, contentType: String = "application/json", streaming: Bool = false) {
        self.method = method
        self.path = path
        self.body = body
        self.contentType = contentType
        self.streaming = streaming
    }
}

/// The answer to a ``ControlRequest``: its status and its body as it arrives.
package struct ControlResponse: Sendable {
    /// The HTTP status code.
    package var status: Int
    /// The body's bytes as the transport receives them: AsyncHTTPClient's own body over a socket, no copy between.
    package var body: any AsyncSequence<ByteBuffer, any Error> & Sendable

    /// An answer with `status` whose body arrives as `body` (a transport builds one; tests may too).
    package init(status: Int, body: any AsyncSequence<ByteBuffer, any Error> & Sendable) {
        self.status = status
        self.body = body
    }

    /// The whole body, refused past `limit` bytes.
    package func collect(upTo limit: Int) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        for try await var part in body {
            guard collected.readableBytes + part.readableBytes <= limit else {
                throw ScenarioClientError.unexpectedResponse(status: status, detail: "a body over \(limit) bytes")
            }
            collected.writeBuffer(&part)
        }
        return collected
    }
}
