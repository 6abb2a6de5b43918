import Fakes
import Foundation
import HTTPTypes
import Services

/// Live WebSockets: a live route's (or a live or record scenario's) WebSocket, opened by the live network and
/// relayed message by message, each journaled with the instant it passed and which way it went.
///
/// Unlike a live stream's reads, waiting for the server's next message is not work under way: a socket may stay
/// open and silent for good, and the session must still settle. A message that comes resumes the Model between
/// steps, so the clock reports it once the session has settled again, as a running clock's tick is reported.
extension RoutedNetwork {
    /// Opens `request`'s WebSocket on the live network and relays it.
    func openLiveSocket(_ request: NetworkRequest, _ arrived: NetworkExchange) async throws(TransportError) -> WebSocketConnection {
        // The live network's own tasks (the connection's reader) are the daemon's, not the Model's: they start outside
        // the session's scope.
        let (upstream, opened) = try await openUpstream(arrived) { network async throws(TransportError) -> WebSocketConnection in
            try await SessionScope.$current.withValue(nil) { () async -> Result<WebSocketConnection, TransportError> in
                do throws(TransportError) { return .success(try await network.webSocket(request)) } catch { return .failure(error) }
            }.get()
        }
        var exchange = opened
        exchange.status = 101
        exchange.stream = StreamTranscript(kind: .webSocket, openedAt: await clock.now(), pending: 0, nextAt: nil)
        liveStreams[exchange.sequence] = exchange
        await journal(exchange)
        return WebSocketConnection(channel: LiveSocketRelay(network: self, id: exchange.sequence, upstream: upstream.channel))
    }

    /// The server's next message on live socket `id`, journaled; nil once the server has closed it.
    func relayReceive(_ id: Int, from upstream: any WebSocketChannel) async throws(TransportError) -> WebSocketMessage? {
        let message: WebSocketMessage?
        // What the server does — a message, its close, a drop — resumes the Model between steps: once the session
        // has settled again, the clock reports it, so clients see the Model's answer when it happens.
        defer {
            scope.noteOutsideArrival(from: "a live server")
            (clock as? VirtualClock)?.reportOutsideArrival()
        }
        do {
            message = try await upstream.receive()
        } catch {
            await endLive(id, how: error == .cancelled ? .cancelled : .dropped, fault: error == .cancelled ? nil : error)
            throw error
        }
        guard let message else {
            await endLive(id, how: .closed, close: await upstream.serverClose())
            return nil
        }
        await noteLive(message, on: id, sent: false)
        return message
    }

    /// Sends the Model's `message` on live socket `id`, journaled.
    func relaySend(_ message: WebSocketMessage, on id: Int, to upstream: any WebSocketChannel) async throws(TransportError) {
        // Journaled as it leaves: the server's answer can arrive, and be journaled, before the send returns.
        await noteLive(message, on: id, sent: true)
        let send = { () async throws(TransportError) in try await upstream.send(message) }
        try await waitingForLive(send)
    }

    /// The Model closed live socket `id` with `frame`.
    func relayClose(_ id: Int, _ frame: WebSocketClose, upstream: any WebSocketChannel) async {
        await upstream.close(frame)
        await endLive(id, how: .cancelled, close: frame)
    }

    private func noteLive(_ message: WebSocketMessage, on id: Int, sent: Bool) async {
        guard liveStreams[id] != nil else { return }
        liveStreams[id]!.stream?.append(StreamChunk(time: await clock.now(), message: message, sent: sent))
        await journal(liveStreams[id]!)
    }
}

/// A live WebSocket as the Model uses it: each message through the network fake, which journals it.
private struct LiveSocketRelay: WebSocketChannel {
    let network: RoutedNetwork
    let id: Int
    let upstream: any WebSocketChannel

    func receive() async throws(TransportError) -> WebSocketMessage? {
        try await network.relayReceive(id, from: upstream)
    }

    func send(_ message: WebSocketMessage) async throws(TransportError) {
        try await network.relaySend(message, on: id, to: upstream)
    }

    func close(_ frame: WebSocketClose) async {
        await network.relayClose(id, frame, upstream: upstream)
    }

    func serverClose() async -> WebSocketClose? {
        await upstream.serverClose()
    }

    func consumerLeft() {
        upstream.consumerLeft()
        let network = network, id = id
        Task { await network.endLive(id, how: .cancelled) }
    }
}
