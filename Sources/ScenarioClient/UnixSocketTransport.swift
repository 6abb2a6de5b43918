import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Services

/// The control API over the daemon's Unix socket, with AsyncHTTPClient.
struct UnixSocketTransport: ControlTransport {
    let socketPath: String
    let http: HTTPClient
    let timeout: Duration
    private let base: String

    var endpoint: String { socketPath }

    /// A client that does not retry a connection that failed: on a local socket, a refused or missing socket means
    /// no daemon, and retrying only delays saying so (AsyncHTTPClient's default retries until the deadline).
    /// Process-wide and never shut down, as `HTTPClient.shared` is.
    static let failFast: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(1)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    init(socketPath: String, http: HTTPClient, timeout: Duration) {
        self.socketPath = socketPath
        self.http = http
        self.timeout = timeout
        // AsyncHTTPClient speaks http+unix:// with the percent-encoded socket path as the host.
        self.base = "http+unix://" + (socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketPath)
    }

    func send(_ request: ControlRequest) async throws -> ControlResponse {
        var outgoing = HTTPClientRequest(url: base + request.path)
        outgoing.method = HTTPMethod(rawValue: request.method)
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: request.contentType)
            outgoing.body = .bytes(ByteBuffer(data: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(outgoing, timeout: request.streaming ? .hours(24 * 365) : TimeAmount(timeout))
        } catch {
            throw Self.clientError(error, socket: socketPath, timeout: timeout, changesState: request.method != "GET")
        }
        return ControlResponse(status: Int(response.status.code), body: response.body)
    }

    /// Tells a request that never reached the daemon (nothing was done) from one that was sent and got no answer
    /// (it may have been done).
    static func clientError(_ error: any Error, socket: String, timeout: Duration, changesState: Bool) -> ScenarioClientError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout:
                return .noAnswer(socket: socket, reason: "no answer within \(DurationText.format(timeout))",
                                mayHaveBeenApplied: changesState)
            case .remoteConnectionClosed, .cancelled:
                return .noAnswer(socket: socket, reason: "the daemon closed the connection before answering",
                                mayHaveBeenApplied: changesState)
            case .connectTimeout:
                return .daemonUnreachable(socket: socket, reason: "the connection was not accepted within a second")
            default:
                return .daemonUnreachable(socket: socket, reason: "\(error)")
            }
        }
        if let error = error as? NIOCore.IOError {
            switch error.errnoCode {
            case ENOENT: return .daemonUnreachable(socket: socket, reason: "no such socket")
            case ECONNREFUSED: return .daemonUnreachable(socket: socket, reason: "connection refused, a socket file with no daemon behind it")
            case EACCES: return .daemonUnreachable(socket: socket, reason: "permission denied; join the daemon's group, or use a socket you may open")
            default: return .daemonUnreachable(socket: socket, reason: String(cString: strerror(error.errnoCode)))
            }
        }
        return .daemonUnreachable(socket: socket, reason: "\(error)")
    }
}
