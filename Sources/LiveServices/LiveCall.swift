public import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import HTTPTypes
import Logging
public import Services

extension LiveNetwork {
    /// Opens a gRPC call on the real server with grpc-swift-nio-transport's HTTP/2 transport (TLS with the system's
    /// trust store for `https`, plaintext for `http`), following ``LiveNetworkConfiguration/forward`` as a request
    /// does. Each call has its own connection, closed when the call ends: a live call here is a test's or a demo's,
    /// not a hot path.
    ///
    /// A server that cannot be reached ends the call with `UNAVAILABLE` at once (the call does not wait for it).
    public func rpc(_ request: NetworkRequest, first: Data?) async throws(TransportError) -> RPCCall {
        guard !Task.isCancelled else { throw .cancelled }
        let (target, _) = forwarded(request.url)
        guard let url = URL(string: target), let host = url.host(), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
            throw .connectionRefused
        }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2 else { throw .connectionRefused }
        let transport: HTTP2ClientTransport.Posix
        do {
            transport = try HTTP2ClientTransport.Posix(target: .dns(host: host, port: url.port ?? (scheme == "https" ? 443 : 80)),
                                                       transportSecurity: scheme == "https" ? .tls : .plaintext)
        } catch {
            logger.warning("a live gRPC call to \(request.url) could not start: \(error)")
            throw .connectionRefused
        }
        let metadata = Metadata(request.head.headerFields.filter { $0.name != .contentType }.map { ($0.name.canonicalName, .string($0.value)) })
        let (outbound, sending) = AsyncStream<Data?>.makeStream()
        let (inbound, receiving) = AsyncThrowingStream<RPCEvent, any Error>.makeStream()
        sending.yield(first)
        let descriptor = MethodDescriptor(fullyQualifiedService: String(parts[0]), method: String(parts[1]))
        var options = CallOptions.defaults
        options.waitForReady = false
        let call = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await transport.connect() }
                do {
                    try await transport.withStream(descriptor: descriptor, options: options) { stream, _ in
                        try await withThrowingTaskGroup(of: Void.self) { calls in
                            calls.addTask {
                                try await stream.outbound.write(.metadata(metadata))
                                for await message in outbound {
                                    guard let message else { break }
                                    try await stream.outbound.write(.message(GRPCNIOTransportBytes([UInt8](message))))
                                }
                                await stream.outbound.finish()
                            }
                            for try await part in stream.inbound {
                                switch part {
                                case .metadata(let metadata): receiving.yield(.metadata(HTTPFields(metadata)))
                                case .message(let bytes): receiving.yield(.message(bytes.withUnsafeBytes { Data($0) }))
                                case .status(let status, let trailers):
                                    receiving.yield(.status(RPCStatus(code: status.code.rawValue, message: status.message), trailers: HTTPFields(trailers)))
                                }
                            }
                            calls.cancelAll()
                        }
                    }
                    receiving.finish()
                } catch let error as RPCError {
                    // The transport's own failures (a refused connection) are the call's status, as a client sees them.
                    receiving.yield(.status(RPCStatus(code: error.code.rawValue, message: error.message), trailers: [:]))
                    receiving.finish()
                } catch {
                    receiving.finish(throwing: error)
                }
                transport.beginGracefulShutdown()
            }
            // The call is over: a later send fails rather than wait in a buffer no one reads.
            sending.finish()
        }
        return RPCCall(channel: LiveCallChannel(inbound: inbound, sending: sending, call: call))
    }
}

/// A live call's two directions, over the task that runs it on the HTTP/2 transport.
private final class LiveCallChannel: RPCChannel {
    private let inbound: AsyncThrowingStream<RPCEvent, any Error>
    private let sending: AsyncStream<Data?>.Continuation
    private let call: Task<Void, Never>

    init(inbound: AsyncThrowingStream<RPCEvent, any Error>, sending: AsyncStream<Data?>.Continuation, call: Task<Void, Never>) {
        self.inbound = inbound
        self.sending = sending
        self.call = call
    }

    func receive() async throws(TransportError) -> RPCEvent? {
        // One reader at a time (the session's relay): each iterator reads the stream's one buffer.
        var events = inbound.makeAsyncIterator()
        let event: RPCEvent?
        do {
            event = try await events.next()
        } catch {
            throw Task.isCancelled ? .cancelled : .connectionReset
        }
        // A cancelled read ends the stream with nil: that is the reader's cancellation, not the server's end.
        if event == nil, Task.isCancelled { throw .cancelled }
        return event
    }

    func send(_ message: Data) async throws(TransportError) {
        guard case .enqueued = sending.yield(message) else { throw .connectionReset }
    }

    func finishSending() async {
        sending.yield(nil)
        sending.finish()
    }

    func consumerLeft() {
        sending.finish()
        call.cancel()
    }
}

extension HTTPFields {
    /// gRPC metadata as HTTP fields; binary values in base64, as on the wire.
    init(_ metadata: Metadata) {
        self.init()
        for (key, value) in metadata {
            guard let name = HTTPField.Name(key) else { continue }
            switch value {
            case .string(let text): append(HTTPField(name: name, value: text))
            case .binary(let bytes): append(HTTPField(name: name, value: Data(bytes).base64EncodedString()))
            }
        }
    }
}
