import Fakes
import Foundation
import ScenarioFormat
import Services

/// The live network of a recording session, keeping every exchange in full (bodies and all) for
/// ``RecordedScenario``. Unlike the journal it drops nothing, up to ``capacity`` exchanges and its byte limit
/// (``HostLimits/recordingBytes``); past either it still forwards requests, but the recording can no longer be
/// saved whole, so it lets go of what it kept, and saving says why.
actor Recorder: NetworkService {
    /// The most exchanges one recording keeps.
    static let capacity = 10_000

    private let live: any NetworkService
    private(set) var exchanges: [RecordedExchange] = []
    /// Requests forwarded but not kept, once the recording passed a bound.
    private(set) var overflowed = 0
    /// Why the recording cannot be saved, once it passed a bound.
    private(set) var overflowReason: String?
    private var sequence = 0
    private var bytes = 0
    private let byteLimit: Int
    private let held: SessionBytes

    init(forwardingTo live: any NetworkService, byteLimit: Int, held: SessionBytes) {
        self.live = live
        self.byteLimit = byteLimit
        self.held = held
        held.set(.recording, to: 0)
    }

    func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse {
        sequence += 1
        let number = sequence
        let result: Result<NetworkResponse, TransportError>
        do { result = .success(try await live.send(request)) } catch { result = .failure(error) }
        keep(RecordedExchange(sequence: number, request: request, result: result))
        return try result.get()
    }

    /// Relays the live stream and records each chunk at its offset from the head, measured in real time, so a
    /// replay on the virtual clock delivers it as it arrived.
    func stream(_ request: NetworkRequest) async throws(TransportError) -> NetworkStream {
        sequence += 1
        let number = sequence
        let stream: NetworkStream
        do {
            stream = try await live.stream(request)
        } catch {
            keep(RecordedExchange(sequence: number, request: request, result: .failure(error)))
            throw error
        }
        // Open until it ends: a stream still open when the recording is saved replays as one that stalls there.
        keep(RecordedExchange(sequence: number, request: request, result: .success(NetworkResponse(head: stream.head)),
                              stream: StreamScript(items: [], end: .stall)))
        let source = RecordingStream(recorder: self, sequence: number, upstream: stream.body.source, openedAt: .now)
        return NetworkStream(head: stream.head, source: source)
    }

    /// Relays a live gRPC call, which the recording does not keep: a saved scenario gets no route for it (the
    /// journal still has the call, its messages as JSON where a route's descriptor set knows its method).
    func rpc(_ request: NetworkRequest, first: Data?) async throws(TransportError) -> RPCCall {
        try await live.rpc(request, first: first)
    }

    /// Relays a live WebSocket and records its conversation: each message either way at its offset from the
    /// handshake, measured in real time, and the server's close; a refused handshake is recorded as its error.
    func webSocket(_ request: NetworkRequest) async throws(TransportError) -> WebSocketConnection {
        sequence += 1
        let number = sequence
        let connection: WebSocketConnection
        do {
            connection = try await live.webSocket(request)
        } catch {
            keep(RecordedExchange(sequence: number, request: request, result: .failure(error)))
            throw error
        }
        keep(RecordedExchange(sequence: number, request: request, result: .success(NetworkResponse(status: 101)),
                              conversation: RecordedConversation()))
        return WebSocketConnection(channel: RecordingSocket(recorder: self, sequence: number, upstream: connection.channel, openedAt: .now))
    }

    fileprivate func note(_ sequence: Int, message: WebSocketMessage, sent: Bool, at offset: Duration) {
        let size = switch message {
        case .text(let text): 32 + text.utf8.count
        case .binary(let data): 32 + data.count
        }
        update(sequence, adding: size) { $0.conversation?.messages.append(.init(offset: offset, message: message, sent: sent)) }
    }

    fileprivate func note(_ sequence: Int, close: WebSocketClose, at offset: Duration) {
        update(sequence) { $0.conversation?.close = WebSocketScript.Close(offset: offset, frame: close) }
    }

    fileprivate func note(_ sequence: Int, chunk: Data, at offset: Duration) {
        update(sequence, adding: 32 + chunk.count) { $0.stream?.items.append(StreamScript.Item(offset: offset, bytes: chunk)) }
    }

    fileprivate func note(_ sequence: Int, end: StreamScript.End, at offset: Duration) {
        update(sequence) { exchange in
            guard let items = exchange.stream?.items else { return }
            exchange.stream = StreamScript(items: items, end: end, endOffset: offset)
        }
    }

    /// Changes the kept exchange numbered `sequence`, if it was kept, which makes it hold `size` more bytes.
    private func update(_ sequence: Int, adding size: Int = 0, _ change: (inout RecordedExchange) -> Void) {
        guard let index = exchanges.lastIndex(where: { $0.sequence == sequence }) else { return }
        guard fits(size) else { return }
        change(&exchanges[index])
    }

    private func keep(_ exchange: RecordedExchange) {
        guard exchanges.count < Self.capacity || overflowReason != nil else {
            overflow(because: "recorded more than \(Self.capacity) requests")
            overflowed += 1
            return
        }
        guard overflowReason == nil, fits(exchange.heldBytes) else {
            overflowed += 1
            return
        }
        exchanges.append(exchange)
    }

    /// Counts `size` more bytes kept; false (and the recording let go of) when they pass the limit.
    private func fits(_ size: Int) -> Bool {
        guard overflowReason == nil else { return false }
        guard bytes + size <= byteLimit else {
            overflow(because: "kept more than \(ByteCountText.format(byteLimit)) of requests and answers (the daemon's --recording-bytes)")
            return false
        }
        bytes += size
        held.set(.recording, to: bytes)
        return true
    }

    /// The recording can no longer be saved whole: what it kept is let go of, so a session left recording holds
    /// nothing more.
    private func overflow(because reason: String) {
        if overflowReason == nil {
            overflowReason = reason
            overflowed += exchanges.count
            exchanges = []
            bytes = 0
            held.set(.recording, to: 0)
        }
    }
}

/// A live stream passed through a recording: each chunk and the end noted with its offset from the head.
private struct RecordingStream: NetworkStreamSource {
    let recorder: Recorder
    let sequence: Int
    let upstream: any NetworkStreamSource
    let openedAt: ContinuousClock.Instant

    func next() async throws(TransportError) -> Data? {
        do {
            let chunk = try await upstream.next()
            let offset = ContinuousClock.now - openedAt
            if let chunk {
                await recorder.note(sequence, chunk: chunk, at: offset)
            } else {
                await recorder.note(sequence, end: .close, at: offset)
            }
            return chunk
        } catch {
            // A consumer that gave up is not the server's doing: the recording keeps the stream open there.
            if error != .cancelled { await recorder.note(sequence, end: .drop(error), at: ContinuousClock.now - openedAt) }
            throw error
        }
    }

    func consumerLeft() { upstream.consumerLeft() }
}

/// A live WebSocket passed through a recording: each message either way, and the server's close, noted with its
/// offset from the handshake. The Model's own close is not noted: a replay's Model closes it again.
private struct RecordingSocket: WebSocketChannel {
    let recorder: Recorder
    let sequence: Int
    let upstream: any WebSocketChannel
    let openedAt: ContinuousClock.Instant

    func receive() async throws(TransportError) -> WebSocketMessage? {
        let message = try await upstream.receive()
        let offset = ContinuousClock.now - openedAt
        if let message {
            await recorder.note(sequence, message: message, sent: false, at: offset)
        } else if let close = await upstream.serverClose() {
            await recorder.note(sequence, close: close, at: offset)
        }
        return message
    }

    func send(_ message: WebSocketMessage) async throws(TransportError) {
        // Noted as it leaves, before the server's answer, which can arrive before the send returns.
        await recorder.note(sequence, message: message, sent: true, at: ContinuousClock.now - openedAt)
        try await upstream.send(message)
    }

    func close(_ frame: WebSocketClose) async { await upstream.close(frame) }

    func serverClose() async -> WebSocketClose? { await upstream.serverClose() }

    func consumerLeft() { upstream.consumerLeft() }
}
