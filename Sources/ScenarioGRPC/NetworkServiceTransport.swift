public import Foundation
public import GRPCCore
import HTTPTypes
public import Services
import Synchronization

/// A grpc-swift 2 client transport whose calls go through a Model's ``/Services/NetworkService``: in a session,
/// the scenario's gRPC routes answer them on the session's clock and the journal records them; live, the live
/// network sends them to the real server. Give it to `GRPCClient(transport:)` in place of an HTTP/2 transport.
///
/// A call opens once its first message is written (or the client ends its side without one): the network matches a
/// call by that message, as it matches a request by its body.
public struct NetworkServiceTransport: ClientTransport {
    /// Messages as byte arrays: the network service carries each as `Data`.
    public typealias Bytes = [UInt8]

    /// No retry throttling: the network service's answers are what a test asked for.
    public var retryThrottle: RetryThrottle? { nil }

    private let network: any NetworkService
    private let target: URL
    private let shutdown = ShutdownSignal()

    /// A transport to the server at `target` (`https://vehicles.example`; `http` for a plaintext server), whose calls
    /// `network` carries.
    public init(network: any NetworkService, target: URL) {
        self.network = network
        self.target = target
    }

    /// Runs until ``beginGracefulShutdown()`` or cancellation: each call opens its own exchange, so there is no
    /// connection to keep.
    public func connect() async throws {
        await shutdown.wait()
    }

    /// Ends ``connect()``; calls under way finish.
    public func beginGracefulShutdown() {
        shutdown.fire()
    }

    /// No per-method configuration: grpc-swift's defaults.
    public func config(forMethod descriptor: MethodDescriptor) -> MethodConfig? { nil }

    /// Runs `closure` over one call of `descriptor`'s method.
    public func withStream<T: Sendable>(
        descriptor: MethodDescriptor, options: CallOptions,
        _ closure: (_ stream: RPCStream<Inbound, Outbound>, _ context: ClientContext) async throws -> T
    ) async throws -> T {
        var url = target
        url.append(path: descriptor.service.fullyQualifiedService, directoryHint: .notDirectory)
        url.append(path: descriptor.method, directoryHint: .notDirectory)
        let call = CallOpening(network: network, url: url)
        let stream = RPCStream(descriptor: descriptor, inbound: RPCAsyncSequence(wrapping: CallResponses(call: call)),
                               outbound: RPCWriter.Closable(wrapping: CallRequests(call: call)))
        let context = ClientContext(descriptor: descriptor, remotePeer: target.absoluteString, localPeer: "session")
        defer { call.leave() }
        return try await closure(stream, context)
    }
}

/// Waits for a transport's shutdown.
private final class ShutdownSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let fired = state.withLock { state in
                    if !state.fired { state.waiters.append(continuation) }
                    return state.fired
                }
                if fired { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }

    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// One call's opening: its metadata until the first message (or the client's end) opens it on the network, then
/// its channel, or why it could not open (or was given up).
private actor CallOpening {
    private enum State {
        case gathering(HTTPFields)
        case open(any RPCChannel)
        case failed(TransportError)
    }

    private let network: any NetworkService
    private let url: URL
    private var state = State.gathering([:])
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// A status the client reads once (a call that failed to open, or was given up) before its responses end.
    private var failureRead = false
    /// The client let go (its call ended or was cancelled) while the call was opening: the channel, once there, is
    /// let go at once.
    private var released = false

    init(network: any NetworkService, url: URL) {
        self.network = network
        self.url = url
    }

    func write(_ part: RPCRequestPart<[UInt8]>) async throws {
        switch (part, state) {
        case (.metadata(let metadata), .gathering(var fields)):
            for (key, value) in metadata {
                guard let name = HTTPField.Name(key) else { continue }
                switch value {
                case .string(let text): fields.append(HTTPField(name: name, value: text))
                case .binary(let bytes): fields.append(HTTPField(name: name, value: Data(bytes).base64EncodedString()))
                }
            }
            state = .gathering(fields)
        case (.message(let bytes), .gathering(let fields)):
            await open(fields, first: Data(bytes))
        case (.message(let bytes), .open(let channel)):
            do { try await channel.send(Data(bytes)) } catch { throw RPCError(code: .unavailable, message: "the call has ended: \(error)") }
        case (.message, .failed(let error)):
            throw RPCError(code: error == .cancelled ? .cancelled : .unavailable, message: "the call could not open: \(error)")
        case (.metadata, _):
            break
        }
    }

    /// The client ended its side: a call not yet open opens now, without a first message.
    func finish() async {
        if case .gathering(let fields) = state { await open(fields, first: nil) }
        if case .open(let channel) = state { await channel.finishSending() }
    }

    /// The client's requests failed (its producer threw, or it was cancelled): the call is given up, not ended, so
    /// the client reads `CANCELLED` rather than what the server would have answered a finished call.
    func abandon() {
        if case .open(let channel) = state { channel.consumerLeft() }
        state = .failed(.cancelled)
        resumeWaiters()
    }

    private func open(_ fields: HTTPFields, first: Data?) async {
        var request = NetworkRequest(method: .post, url: url, body: Data())
        request.head.headerFields = fields
        request.head.headerFields[.contentType] = "application/grpc"
        do throws(TransportError) {
            let channel = try await network.rpc(request, first: first).channel
            // Given up while it opened: the call is let go as soon as it is there.
            guard case .gathering = state, !released else {
                channel.consumerLeft()
                return
            }
            state = .open(channel)
        } catch {
            if case .gathering = state { state = .failed(error) }
        }
        resumeWaiters()
    }

    private func resumeWaiters() {
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    /// The server's next part: after the call opened, its channel's; a call that could not open ends with
    /// `UNAVAILABLE` (or `CANCELLED`), as an HTTP/2 transport's does when its connection fails. A reader cancelled
    /// while the call waits for its first message gives the call up.
    func next() async throws -> RPCResponsePart<[UInt8]>? {
        while case .gathering = state {
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiters.append($0) }
            } onCancel: {
                Task { await self.abandon() }
            }
        }
        switch state {
        case .gathering:
            return nil
        case .failed(let error):
            guard !failureRead else { return nil }
            failureRead = true
            return .status(Status(code: error == .cancelled ? .cancelled : .unavailable, message: "\(url.host() ?? ""): \(error)"), [:])
        case .open(let channel):
            let event: RPCEvent?
            do {
                event = try await channel.receive()
            } catch {
                channel.consumerLeft()
                state = .failed(error)
                return try await next()
            }
            switch event {
            case nil: return nil
            case .metadata(let fields): return .metadata(Metadata(fields))
            case .message(let bytes): return .message([UInt8](bytes))
            case .status(let status, let trailers):
                return .status(Status(code: Status.Code(rawValue: status.code) ?? .unknown, message: status.message), Metadata(trailers))
            }
        }
    }

    nonisolated func leave() {
        Task { await self.release() }
    }

    private func release() {
        released = true
        if case .open(let channel) = state { channel.consumerLeft() }
        if case .gathering = state { state = .failed(.cancelled) }
        resumeWaiters()
    }
}

extension Metadata {
    /// Metadata from HTTP fields; `-bin` keys' values are base64, as on the wire.
    init(_ fields: HTTPFields) {
        self.init()
        for field in fields {
            let key = field.name.canonicalName
            if key.hasSuffix("-bin"), let bytes = Data(base64Encoded: field.value) {
                addBinary([UInt8](bytes), forKey: key)
            } else {
                addString(field.value, forKey: key)
            }
        }
    }
}

/// A call's request parts, written by grpc-swift.
private struct CallRequests: ClosableRPCWriterProtocol {
    typealias Element = RPCRequestPart<[UInt8]>
    let call: CallOpening

    func write(_ element: Element) async throws { try await call.write(element) }
    func write(contentsOf elements: some Sequence<Element>) async throws {
        for element in elements { try await call.write(element) }
    }
    func finish() async { await call.finish() }
    func finish(throwing error: any Error) async { await call.abandon() }
}

/// A call's response parts, read by grpc-swift.
private struct CallResponses: AsyncSequence, Sendable {
    typealias Element = RPCResponsePart<[UInt8]>
    typealias Failure = any Error
    let call: CallOpening

    func makeAsyncIterator() -> Iterator { Iterator(call: call) }

    struct Iterator: AsyncIteratorProtocol {
        let call: CallOpening
        mutating func next() async throws -> Element? { try await call.next() }
    }
}
