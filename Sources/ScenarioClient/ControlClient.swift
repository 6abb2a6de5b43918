import ControlAPI
import Foundation
import NIOCore
import NIOFoundationCompat
import Services

/// A typed client of scenariod's control API over its Unix socket. Every method maps to one operation of
/// `openapi/scenariod.yaml`; `session` defaults to the daemon's default session.
public struct ControlClient: Sendable {
    /// The id of a daemon's default session.
    public static let defaultSession = "default"

    /// Where this client's requests go: the daemon's socket, or `in-process`.
    public var socketPath: String { transport.endpoint }
    package let transport: any ControlTransport

    /// Creates a client of the daemon listening on `socketPath`.
    ///
    /// A missing socket, or one with no daemon behind it, fails the first request at once with
    /// ``ScenarioClientError/daemonUnreachable(socket:reason:)``; a daemon that accepts but does not answer fails it
    /// after `timeout` with ``ScenarioClientError/noAnswer(socket:reason:mayHaveBeenApplied:)``. Event streams have no time limit.
    /// - Parameters:
    ///   - socketPath: The daemon's control socket.
    ///   - timeout: How long a request may wait for its answer; ``defaultTimeout`` unless given.
    public init(socketPath: String, timeout: Duration? = nil) {
        self.transport = UnixSocketTransport(socketPath: socketPath, http: UnixSocketTransport.failFast, timeout: timeout ?? Self.defaultTimeout)
    }

    /// How long a request waits for its answer unless a client says otherwise: `$SCENARIOD_TIMEOUT` (a duration
    /// such as `2s` or `500ms`), else 10 seconds. Long enough for an action that waits on a slow live server, short
    /// enough that a stopped daemon is reported while someone still waits for it.
    public static var defaultTimeout: Duration {
        ProcessInfo.processInfo.environment["SCENARIOD_TIMEOUT"].flatMap(DurationText.parse) ?? .seconds(10)
    }

    /// Creates a client that reaches the control API through `transport` (ScenarioTesting's in-process mode).
    package init(transport: any ControlTransport) {
        self.transport = transport
    }

    // The requests every operation is made of; the operations are in the extensions by concern (ControlClient+*.swift).

    func sessionPath(_ id: String, _ rest: String = "") -> String { "/v1/sessions/\(segment(id))\(rest)" }

    package func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }

    package func get<Response: Decodable>(_ path: String) async throws -> Response {
        try await decode(transport.send(ControlRequest(method: "GET", path: path)))
    }

    package func send<Response: Decodable>(_ method: String, _ path: String, body: some Encodable = JSONValue.object([:]),
                                           contentType: String = "application/json") async throws -> Response {
        try await decode(transport.send(ControlRequest(method: method, path: path, body: try JSONEncoder.services.encode(body),
                                                       contentType: contentType)))
    }

    func sendExpectingNoContent(_ method: String, _ path: String, body: JSONValue? = nil) async throws {
        let data = try body.map { try JSONEncoder.services.encode($0) }
        let response = try await transport.send(ControlRequest(method: method, path: path, body: data))
        guard response.status == 204 else { throw try await error(from: response) }
    }

    package func decode<Response: Decodable>(_ response: ControlResponse) async throws -> Response {
        let bytes = try await response.collect(upTo: 64 << 20)
        guard (200..<300).contains(response.status) else { throw apiError(status: response.status, bytes: bytes) }
        do {
            return try JSONDecoder.services.decode(Response.self, from: bytes)
        } catch {
            throw ScenarioClientError.unexpectedResponse(status: response.status, detail: "\(error)")
        }
    }

    package func error(from response: ControlResponse) async throws -> ScenarioClientError {
        apiError(status: response.status, bytes: try await response.collect(upTo: 1 << 20))
    }

    func apiError(status: Int, bytes: ByteBuffer) -> ScenarioClientError {
        if let body = try? JSONDecoder().decode(APIErrorBody.self, from: bytes) {
            return .api(status: status, body: body)
        }
        return .unexpectedResponse(status: status, detail: String(buffer: bytes))
    }
}
