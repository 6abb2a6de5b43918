package import Foundation
import HTTPTypes
import Hummingbird
package import Logging
package import NIOCore
import NIOEmbedded
package import ScenarioHost

/// The control API without a socket: the same routes, errors and bodies as ``ControlSocketServer``, answered in the
/// caller's process. ScenarioTesting's in-process mode drives a scenario through it in microseconds, as
/// HummingbirdTesting's router mode tests an application without a server.
package struct ControlResponder: Sendable {
    private let responder: Router<ControlRequestContext>.Responder
    private let logger: Logger

    /// Creates the API over `host`.
    package init(host: SessionHost, configuration: ControlConfiguration, logger: Logger = Logger(label: "scenariod.in-process")) {
        self.responder = ControlRoutes(host: host, configuration: configuration).makeRouter().buildResponder()
        self.logger = logger
    }

    /// Answers one request: its status and its body as the routes write it (an event stream keeps writing until
    /// the session ends or the stream is dropped).
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    ///   - path: The percent-encoded path, `/v1/sessions/s1/state`.
    ///   - body: A JSON body, or nil.
    ///   - contentType: The body's media type (`application/merge-patch+json` for a `PATCH`).
    package func respond(method: String, path: String, body: Data?,
                        contentType: String = "application/json") async -> (status: Int, body: AsyncThrowingStream<ByteBuffer, any Error>) {
        var head = HTTPRequest(method: HTTPRequest.Method(method) ?? .get, scheme: nil, authority: "localhost", path: path)
        if body != nil { head.headerFields[.contentType] = contentType }
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body ?? Data())))
        // Routes read only the logger and path parameters from their context; no connection stands behind it.
        var context = ControlRequestContext(source: .init(channel: EmbeddedChannel(), logger: logger))
        context.connection = nil
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // The error middleware answers every failure itself; this is its last resort, as on the socket.
            return (500, AsyncThrowingStream { $0.finish(throwing: error) })
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self, throwing: (any Error).self)
        let writing = Task {
            do {
                try await response.body.write(StreamWriter(continuation: continuation))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in writing.cancel() }
        return (Int(response.status.code), stream)
    }

    /// Hands what a response body writes to the caller's stream.
    private struct StreamWriter: ResponseBodyWriter {
        let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
        mutating func write(_ buffer: ByteBuffer) async throws {
            if case .terminated = continuation.yield(buffer) { throw CancellationError() }
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws { continuation.finish() }
    }
}
