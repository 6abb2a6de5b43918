import Fakes
import Foundation
import HTTPTypes
public import Services

/// WebSockets: a route's scripted conversation, on the same queue as streams. The server's messages are due at
/// offsets from the connection or from the Model's message that cued them; each message either way is journaled.
extension RoutedNetwork {
    public func webSocket(_ request: NetworkRequest) async throws(TransportError) -> WebSocketConnection {
        scope.checkCaller(of: "network.webSocket")
        switch await openSocket(request, outside: false) {
        case .connection(let connection): return connection
        // A route that answers with anything but a conversation fails the handshake, as a real server would.
        case .answered: throw .connectionRefused
        case .failed(let error): throw error
        }
    }

    /// How a WebSocket handshake ended: a connection, a route's plain answer (a 404, say), or a transport error.
    public enum SocketOpening: Sendable {
        /// The socket opened: the route's conversation, or a live server's.
        case connection(WebSocketConnection)
        /// The route answered with a plain response (no conversation), which refuses the upgrade.
        case answered(NetworkResponse)
        /// The handshake failed with a transport error: a fault, the unmatched fault, a live server's refusal.
        case failed(TransportError)
    }

    /// Opens a WebSocket with `request` for the Model or, `outside`, for a client outside the session (journaled with
    /// `outside` true, its entry handed to `arrived` as it arrives).
    func openSocket(_ request: NetworkRequest, outside: Bool,
                    arrived: @Sendable (NetworkExchange) -> Void = { _ in }) async -> SocketOpening {
        guard !Task.isCancelled, !scope.isClosed else { return .failed(.cancelled) }
        let matched = await match(request, outside: outside)
        switch matched {
        case .passThrough(let exchange), .outcome(_, let exchange): arrived(exchange)
        }
        do throws(TransportError) {
            switch matched {
            case .passThrough(let exchange):
                return .connection(try await openLiveSocket(request, exchange))
            case .outcome(let outcome, let exchange) where outcome.isResponse && outcome.webSocket == nil:
                guard let answerer = outcome.answerer as? any SocketAnswerer, let route = exchange.route else {
                    return .answered(try await journalAndDeliver(outcome, exchange).result.get())
                }
                // An answerer's conversation: the handshake is accepted, and the client's messages are its cues.
                var accepted = outcome
                accepted.result = .response(NetworkResponse(status: 101))
                let conversation = (answerer, answerer.makeConversation(), answererState(of: route, answerer))
                let id = try await openQueue(accepted, exchange, kind: .webSocket) { socket, _ in socket.conversation = conversation }
                return .connection(WebSocketConnection(channel: FakeWebSocket(network: self, id: id)))
            case .outcome(let outcome, let exchange):
                guard let script = outcome.webSocket, outcome.isResponse else {
                    // A fault fails the handshake with that fault.
                    return .answered(try await journalAndDeliver(outcome, exchange).result.get())
                }
                let id = try await openQueue(outcome, exchange, kind: .webSocket) { socket, openedAt in
                    for send in script.onConnect {
                        socket.enqueue(.init(due: openedAt.adding(send.offset), bytes: send.message.bytes, binary: send.message.isBinary))
                    }
                    socket.replies = script.replies
                    if let close = script.close {
                        socket.ending = .init(due: openedAt.adding(close.offset), end: .close, frame: close.frame)
                    }
                }
                return .connection(WebSocketConnection(channel: FakeWebSocket(network: self, id: id)))
            }
        } catch {
            return .failed(error)
        }
    }

    /// The most bytes a WebSocket's server may have waiting to send. A client that talks and never moves the clock
    /// piles up every later reply; past this the server closes the conversation with 1013 (try again later), as an
    /// overloaded server does, rather than hold without bound what the session's clock has not reached.
    public static let waitingBytesLimit = 16 << 20

    /// The Model's message on socket `id`: journaled, and answered by the first reply whose matcher takes it (a
    /// `once` reply then leaves the conversation), or by the route's answerer.
    func socketSend(_ message: WebSocketMessage, on id: Int) async throws(TransportError) {
        guard streams[id] != nil else { throw .connectionReset }
        let now = await clock.now()
        streams[id]!.exchange.stream?.append(StreamChunk(time: now, message: message, sent: true))
        var sends: [(offset: Duration, message: WebSocketMessage, tag: String?)] = []
        if let (answerer, conversation, session) = streams[id]!.conversation {
            let reply = await answerer.reply(to: message, conversation: conversation, state: session)
            guard streams[id] != nil else { return }
            if let tag = reply.withdraw { streams[id]!.queue.removeAll { $0.tag == tag } }
            sends = reply.sends.map { ($0.offset, $0.message, $0.tag) }
            if let close = reply.close { streams[id]!.ending = .init(due: now, end: .close, frame: close) }
        } else {
            let url = URL(string: streams[id]!.exchange.url) ?? URL(string: "ws://socket.invalid")!
            let asRequest = NetworkRequest(method: .post, url: url, body: message.bytes)
            if let index = streams[id]!.replies.firstIndex(where: { $0.when.firstDifference(from: asRequest) == nil }) {
                let reply = streams[id]!.replies[index]
                if reply.once { streams[id]!.replies.remove(at: index) }
                sends = reply.send.map { ($0.offset, $0.message, nil) }
            }
        }
        let adding = sends.reduce(0) { $0 + $1.message.bytes.count }
        if streams[id]!.queue.bytes + adding > Self.waitingBytesLimit {
            // What is due by now still goes out first; what waits for the clock is not sent.
            streams[id]!.queue.removeAll { $0.due > now }
            streams[id]!.ending = .init(due: now, end: .close, frame: WebSocketClose(
                code: 1013, reason: "more than \(Self.waitingBytesLimit >> 20) MiB waits to be sent; move the session's clock"))
        } else {
            for send in sends {
                streams[id]!.enqueue(.init(due: now.adding(send.offset), bytes: send.message.bytes, binary: send.message.isBinary, tag: send.tag))
            }
        }
        streams[id]!.notePending()
        await journal(streams[id]!.exchange)
        wake(id)
    }

    /// The Model closed socket `id`.
    func socketClose(_ id: Int, _ frame: WebSocketClose) async {
        await end(id, how: .cancelled, close: frame)
    }

    /// How the server closed socket `id`, once it has.
    func serverClose(of id: Int) -> WebSocketClose? {
        closedSockets[id]
    }
}

extension NetworkRequest {
    /// Whether it opens a WebSocket (a ws or wss URL), rather than asking for a response.
    var isWebSocketHandshake: Bool { url.hasPrefix("ws://") || url.hasPrefix("wss://") }
}

extension WebSocketMessage {
    var isBinary: Bool {
        if case .binary = self { return true }
        return false
    }
}

/// A scripted WebSocket as the Model's ``WebSocketConnection`` uses it.
private struct FakeWebSocket: WebSocketChannel {
    let network: RoutedNetwork
    let id: Int

    func receive() async throws(TransportError) -> WebSocketMessage? {
        guard let item = try await network.nextChunk(of: id) else { return nil }
        return item.binary ? .binary(item.bytes) : .text(String(decoding: item.bytes, as: UTF8.self))
    }

    func send(_ message: WebSocketMessage) async throws(TransportError) {
        try await network.socketSend(message, on: id)
    }

    func close(_ frame: WebSocketClose) async {
        await network.socketClose(id, frame)
    }

    func serverClose() async -> WebSocketClose? {
        await network.serverClose(of: id)
    }

    func consumerLeft() {
        let network = network, id = id
        Task { await network.release(id) }
    }
}
