import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOFoundationCompat
import NIOWebSocket
public import Services
import WSClient

extension LiveNetwork {
    /// Opens a WebSocket on the real server with hummingbird-project's swift-websocket client, and returns once the
    /// server has accepted the handshake. The server's messages are read from the connection one per ask, so a
    /// consumer that stops reading holds the connection back rather than fill memory.
    ///
    /// A `ws`/`wss` URL follows ``LiveNetworkConfiguration/forward`` as its `http`/`https` origin does, unless the
    /// forward names the `ws`/`wss` origin itself.
    public func webSocket(_ request: NetworkRequest) async throws(TransportError) -> WebSocketConnection {
        guard !Task.isCancelled else { throw .cancelled }
        let (url, serverName) = forwardedSocket(request.url)
        var headers = request.head.headerFields
        // The client writes the handshake's own fields (Host, Origin, the Sec-WebSocket ones); a copy would send two.
        for name in [HTTPField.Name("Host"), .secWebSocketKey, .secWebSocketVersion, .connection, .upgrade].compactMap({ $0 }) {
            headers[name] = nil
        }
        let clientConfiguration = WebSocketClientConfiguration(maxFrameSize: min(configuration.maximumBodySize, 1 << 24),
                                                               additionalHeaders: headers, closeTimeout: configuration.readTimeout,
                                                               validateUTF8: true, sniHostname: serverName)
        let socket = LiveSocket(request: request, network: self)
        let logger = logger, maximumSize = configuration.maximumBodySize
        let connection = Task {
            do {
                let frame = try await WebSocketClient.connect(url: url, configuration: clientConfiguration, logger: logger) { inbound, outbound, _ in
                    await socket.opened(outbound)
                    var messages = inbound.messages(maxSize: maximumSize).makeAsyncIterator()
                    while let message = try await messages.next() {
                        // The Model let go: leaving the handler closes the connection.
                        guard await socket.deliver(Services.WebSocketMessage(message)) else { return }
                    }
                }
                await socket.ended(frame.map { WebSocketClose(code: Int(UInt16(webSocketErrorCode: $0.closeCode)), reason: $0.reason ?? "") })
            } catch {
                await socket.failed(error)
            }
        }
        try await socket.handshake(cancelling: connection)
        return WebSocketConnection(channel: socket)
    }

    /// The URL to connect to for a WebSocket, and the name TLS should present when a `wss` origin is forwarded to
    /// another `wss` server (as ``forwarded(_:)`` keeps the origin's name for `https`).
    private func forwardedSocket(_ url: String) -> (url: String, serverName: String?) {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let web = ["ws": "http", "wss": "https"][scheme], let host = components.host else { return (url, nil) }
        let authority = host + (components.port.map { ":\($0)" } ?? "")
        // A forward of the socket's own origin wins over its web origin's.
        guard let forward = configuration.forward["\(scheme)://\(authority)"] ?? configuration.forward["\(web)://\(authority)"],
              let target = URLComponents(string: forward), let targetScheme = target.scheme else { return (url, nil) }
        components.scheme = ["http": "ws", "https": "wss"][targetScheme] ?? targetScheme
        components.host = target.host
        components.port = target.port
        return (components.string ?? url, components.scheme == "wss" && scheme == "wss" ? host : nil)
    }
}

/// A live WebSocket as a ``WebSocketConnection`` uses it. The connection runs in the client's handler, which hands
/// each message over here and waits until the Model has taken it (a rendezvous: at most one message is held, the
/// rest wait in the connection's buffers and TCP's window).
actor LiveSocket: WebSocketChannel {
    private enum Phase {
        case connecting
        case open(WebSocketOutboundWriter)
        /// Over: how the server closed it (nil when it did not say, or the Model closed it).
        case ended(WebSocketClose?)
        case failed(TransportError)
    }

    private var phase = Phase.connecting
    private var modelClosed = false
    private let request: NetworkRequest
    private let network: LiveNetwork
    /// The opener, waiting for the handshake.
    private var opener: CheckedContinuation<Result<Void, TransportError>, Never>?
    /// A message the server sent and the Model has not yet taken, and the connection's handler waiting until it has.
    private var held: (message: Services.WebSocketMessage, taken: CheckedContinuation<Bool, Never>)?
    /// The Model's read, waiting for the server.
    private var reader: CheckedContinuation<Result<Services.WebSocketMessage?, TransportError>, Never>?

    init(request: NetworkRequest, network: LiveNetwork) {
        self.request = request
        self.network = network
    }

    /// Waits for the handshake; cancelling the caller cancels the connection.
    func handshake(cancelling connection: Task<Void, Never>) async throws(TransportError) {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if case .connecting = phase { opener = continuation } else { continuation.resume(returning: openResult) }
            }
        } onCancel: {
            connection.cancel()
        }
        try result.get()
    }

    private var openResult: Result<Void, TransportError> {
        if case .failed(let error) = phase { return .failure(error) }
        return .success(())
    }

    func opened(_ writer: WebSocketOutboundWriter) {
        phase = .open(writer)
        opener?.resume(returning: .success(()))
        opener = nil
    }

    /// Hands `message` to the Model, waiting until it takes it; false once the Model has let go.
    func deliver(_ message: Services.WebSocketMessage) async -> Bool {
        guard !modelClosed else { return false }
        if let reader {
            self.reader = nil
            reader.resume(returning: .success(message))
            return true
        }
        return await withCheckedContinuation { held = (message, $0) }
    }

    /// The connection ended: with the server's close frame, or without one — a server that dropped the
    /// connection, which the Model hears as a reset, not a clean close.
    func ended(_ frame: WebSocketClose?) {
        guard modelClosed || frame != nil else {
            finish(.failed(.connectionReset))
            return
        }
        finish(.ended(modelClosed ? nil : frame))
    }

    func failed(_ error: any Error) {
        // After the Model's close, the connection's last words (a reset as the server goes) are nobody's concern.
        if case .ended = phase { return }
        finish(.failed(network.failure(error, of: request)))
    }

    private func finish(_ end: Phase) {
        if case .ended = phase { return }
        phase = end
        opener?.resume(returning: openResult)
        opener = nil
        if let reader {
            self.reader = nil
            reader.resume(returning: readResult ?? .success(nil))
        }
    }

    /// What a read gets without waiting: the end, or the failure; nil while the connection is open.
    private var readResult: Result<Services.WebSocketMessage?, TransportError>? {
        switch phase {
        case .connecting, .open: nil
        case .ended: .success(nil)
        case .failed(let error): .failure(error)
        }
    }

    func receive() async throws(TransportError) -> Services.WebSocketMessage? {
        if let held {
            self.held = nil
            held.taken.resume(returning: true)
            return held.message
        }
        if let result = readResult { return try result.get() }
        guard !Task.isCancelled else { throw .cancelled }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { reader = $0 }
        } onCancel: {
            Task { await self.cancelRead() }
        }
        return try result.get()
    }

    private func cancelRead() {
        reader?.resume(returning: .failure(.cancelled))
        reader = nil
    }

    func send(_ message: Services.WebSocketMessage) async throws(TransportError) {
        guard case .open(let writer) = phase, !modelClosed else { throw .connectionReset }
        do {
            switch message {
            case .text(let text): try await writer.write(.text(text))
            case .binary(let data): try await writer.write(.binary(ByteBuffer(bytes: data)))
            }
        } catch {
            throw network.failure(error, of: request)
        }
    }

    func close(_ frame: WebSocketClose) async {
        guard case .open(let writer) = phase, !modelClosed else { return }
        modelClosed = true
        held?.taken.resume(returning: false)
        held = nil
        do {
            try await writer.close(WebSocketErrorCode(codeNumber: frame.code), reason: frame.reason.isEmpty ? nil : frame.reason)
        } catch {
            // Already closing from the other side: nothing is lost, the connection ends either way.
        }
        finish(.ended(nil))
    }

    func serverClose() -> WebSocketClose? {
        if case .ended(let frame) = phase { return frame }
        return nil
    }

    nonisolated func consumerLeft() {
        Task { await self.close(WebSocketClose(code: 1000)) }
    }
}

extension Services.WebSocketMessage {
    init(_ message: WSCore.WebSocketMessage) {
        switch message {
        case .text(let text): self = .text(text)
        case .binary(let buffer): self = .binary(Data(buffer: buffer))
        }
    }
}
