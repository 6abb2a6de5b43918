public import Foundation

/// Sends HTTP requests. A Model builds requests and decodes responses itself; the service only moves bytes.
public protocol NetworkService: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    /// - Throws: ``TransportError`` when no response arrived; `.cancelled` when the calling task was cancelled.
    func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse

    /// Sends `request` and returns the response as it arrives: the head, then the body chunk by chunk (server-sent
    /// events, a chunked body). A service that only answers whole responses need not write this: the default hands
    /// ``send(_:)``'s body over as one chunk.
    /// - Throws: ``TransportError`` when no head arrived; `.cancelled` when the calling task was cancelled.
    func stream(_ request: NetworkRequest) async throws(TransportError) -> NetworkStream

    /// Opens a WebSocket connection with `request` (its URL `ws://` or `wss://`, or the `http` form of it). A
    /// service without WebSockets need not write this: the default refuses every connection.
    /// - Throws: ``TransportError`` when the connection could not be opened.
    func webSocket(_ request: NetworkRequest) async throws(TransportError) -> WebSocketConnection

    /// Opens a gRPC call: `request` is its HTTP/2 request (POST to `https://authority/package.Service/Method`, the
    /// call's metadata as its headers), `first` the client's first message, or nil when the client ended its side
    /// without one. The call is matched (and journaled) by its first message, so it opens when that is known. A
    /// service without gRPC need not write this: the default refuses every call.
    /// - Throws: ``TransportError`` when the call could not be opened.
    func rpc(_ request: NetworkRequest, first: Data?) async throws(TransportError) -> RPCCall
}

extension NetworkService {
    /// The whole response from ``send(_:)``, its body as one chunk.
    public func stream(_ request: NetworkRequest) async throws(TransportError) -> NetworkStream {
        let response = try await send(request)
        return NetworkStream(head: response.head, chunks: response.body.isEmpty ? [] : [response.body])
    }

    /// No WebSockets: every connection is refused.
    public func webSocket(_ request: NetworkRequest) async throws(TransportError) -> WebSocketConnection {
        throw .connectionRefused
    }

    /// No gRPC: every call is refused.
    public func rpc(_ request: NetworkRequest, first: Data?) async throws(TransportError) -> RPCCall {
        throw .connectionRefused
    }
}
