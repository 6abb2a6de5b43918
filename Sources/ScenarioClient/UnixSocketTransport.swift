import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The control API over the daemon's Unix socket, with AsyncHTTPClient.
struct UnixSocketTransport: ControlTransport {
    let socketPath: String
    let http: HTTPClient
    private let base: String

    var endpoint: String { socketPath }

    init(socketPath: String, http: HTTPClient) {
        self.socketPath = socketPath
        self.http = http
        // AsyncHTTPClient speaks http+unix:// with the percent-encoded socket path as the host.
        self.base = "http+unix://" + (socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketPath)
    }

    func send(_ request: ControlRequest) async throws -> ControlResponse {
        var outgoing = HTTPClientRequest(url: base + request.path)
        outgoing.method = HTTPMethod(rawValue: request.method)
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(ByteBuffer(data: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(outgoing, timeout: request.streaming ? .hours(24 * 365) : .seconds(60))
        } catch let error as HTTPClientError {
            throw ScenarioClientError.daemonUnreachable(socket: socketPath, reason: "\(error)")
        } catch let error as NIOCore.IOError {
            throw ScenarioClientError.daemonUnreachable(socket: socketPath, reason: error.description)
        } catch let error as ChannelError {
            throw ScenarioClientError.daemonUnreachable(socket: socketPath, reason: "\(error)")
        }
        return ControlResponse(status: Int(response.status.code), body: response.body)
    }
}
