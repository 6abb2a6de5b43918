import Fakes
import Foundation
import HTTPTypes
import Services

/// Live streams: a live route's (or a live or record scenario's) streamed answer, relayed chunk by chunk from the
/// live network and journaled as it goes, each chunk with the instant it reached the Model.
extension RoutedNetwork {
    /// Opens `request`'s stream on the live network and relays it.
    func openLive(_ request: NetworkRequest, _ arrived: NetworkExchange) async throws(TransportError) -> NetworkStream {
        let (upstream, opened) = try await openUpstream(arrived) { network async throws(TransportError) -> NetworkStream in
            try await network.stream(request)
        }
        var exchange = opened
        exchange.status = upstream.head.status.code
        exchange.stream = StreamTranscript(kind: StreamTranscript.Kind(of: upstream.head), openedAt: await clock.now(), pending: 0, nextAt: nil)
        liveStreams[exchange.sequence] = exchange
        await journal(exchange)
        return NetworkStream(head: upstream.head, source: LiveStreamRelay(network: self, id: exchange.sequence, upstream: upstream.body.source))
    }

    /// Opens a live stream or WebSocket: `arrived` is marked live and waits out the network conditions' delay, then
    /// `open` runs on the live network as work under way, as a live answer does (the session settles once the head
    /// or the handshake is in). A failure is journaled with its fault before it is thrown.
    func openUpstream<T: Sendable>(_ arrived: NetworkExchange, _ open: @Sendable (any NetworkService) async throws(TransportError) -> T)
        async throws(TransportError) -> (T, NetworkExchange) {
        var exchange = arrived
        exchange.live = true
        do throws(TransportError) {
            try await delayLive(&exchange)
            guard let network = upstream else { throw .offline }
            let opening = { () async throws(TransportError) -> T in try await open(network) }
            return (try await waitingForLive(opening), exchange)
        } catch {
            exchange.fault = error.rawValue
            await journal(exchange)
            throw error
        }
    }

    /// Waits for the live server as work under way (see ``SessionExecutor/waitingOutside(_:)``); a seeded session
    /// reports what arrives as unordered.
    func waitingForLive<T: Sendable>(_ operation: sending () async throws(TransportError) -> T) async throws(TransportError) -> T {
        defer { scope.noteOutsideArrival(from: "a live server") }
        return try await scope.executor.waitingOutside(operation)
    }

    /// The next chunk of live stream `id` from `upstream`, journaled. The wait counts as work under way, so the
    /// session is settled only when the Model waits for nothing the live server still owes it.
    func relayNext(_ id: Int, from upstream: any NetworkStreamSource) async throws(TransportError) -> Data? {
        let chunk: Data?
        do {
            let next = { () async throws(TransportError) -> Data? in try await upstream.next() }
            chunk = try await waitingForLive(next)
        } catch {
            await endLive(id, how: error == .cancelled ? .cancelled : .dropped, fault: error == .cancelled ? nil : error)
            throw error
        }
        guard let chunk else {
            await endLive(id, how: .closed)
            return nil
        }
        if liveStreams[id] != nil {
            let now = await clock.now()
            liveStreams[id]!.stream?.append(StreamChunk(time: now, text: String(decoding: chunk, as: UTF8.self)))
            await journal(liveStreams[id]!)
        }
        return chunk
    }

    /// Removes live stream (or WebSocket) `id` and journals how it ended.
    func endLive(_ id: Int, how state: StreamTranscript.State, fault: TransportError? = nil, close: WebSocketClose? = nil) async {
        guard var exchange = liveStreams.removeValue(forKey: id) else { return }
        exchange.stream?.state = state
        exchange.stream?.fault = fault?.rawValue
        exchange.stream?.close = close
        await journal(exchange)
    }
}

/// A live stream as the Model reads it: each chunk through the network fake, which journals it.
private struct LiveStreamRelay: NetworkStreamSource {
    let network: RoutedNetwork
    let id: Int
    let upstream: any NetworkStreamSource

    func next() async throws(TransportError) -> Data? {
        try await network.relayNext(id, from: upstream)
    }

    func consumerLeft() {
        upstream.consumerLeft()
        let network = network, id = id
        Task { await network.endLive(id, how: .cancelled) }
    }
}
