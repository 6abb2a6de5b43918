import ControlAPI
import HTTPTypes
public import Services
import SessionRuntime

// WebSockets a client opens through the session's network from outside (a session endpoint's upgrade): the opening,
// each of the client's messages and its close are steps of the history, so a rewind replays the conversation.
extension Session {
    /// Opens a WebSocket with `request` through the session's network, as its Model's network service would: a route's
    /// scripted conversation on the session's clock, or a live server. It is journaled with `outside` true and is a
    /// step of the history (`openSocket`).
    ///
    /// Returns once the session has settled, with the handshake in ``OutsideRequest/answer()``: a 101 response once
    /// the socket is open (``outsideSocket(_:)`` then gives it), a route's plain response, or a transport error. A
    /// delayed handshake waits for a clock move.
    /// - Parameter receive: Given what the server sends, as the session's clock delivers it, and how it ends.
    /// - Throws: ``HostError`` `.tooMuchHeld`, or `.unknownSession` for a deleted session.
    public func openSocketFromOutside(_ request: NetworkRequest,
                                      receive: @escaping @Sendable (OutsideSocket.Event) -> Void) async throws(HostError) -> OutsideRequest {
        try admit("open a WebSocket to \(request.url)")
        let known = await takeTurn()
        defer { endTurn() }
        let opened = try await openSocketNow(request, receive: receive)
        try await settledStep(.openSocket(request), known: known, "the WebSocket opened from outside")
        return opened
    }

    /// The socket an outside client opened, by its handshake's sequence number, while it is open.
    public nonisolated func outsideSocket(_ sequence: Int) -> OutsideSocket? {
        outsideSockets.socket(sequence)
    }

    /// Sends the client's `message` on `socket`: the route's replies answer it on the session's clock. A step of the
    /// history (`sendToSocket`).
    /// - Throws: ``HostError`` `.unknownStream` when the socket is closed, or the session was reset or rewound since
    ///   it opened.
    public func send(_ message: WebSocketMessage, on socket: OutsideSocket) async throws(HostError) {
        try admit("send a WebSocket message on stream \(socket.sequence)")
        let known = await takeTurn()
        defer { endTurn() }
        try await socketSendNow(message, on: socket.sequence, expecting: socket)
        try await settledStep(.sendToSocket(socket: socket.sequence, message: message), known: known, "the message sent from outside")
    }

    /// The client closed `socket` with `frame` (or went). A step of the history (`closeSocket`); a socket already
    /// gone changes nothing.
    public func close(_ socket: OutsideSocket, frame: WebSocketClose) async throws(HostError) {
        let known = await takeTurn()
        defer { endTurn() }
        guard outsideSockets.socket(socket.sequence) === socket else { return }
        try await socketCloseNow(socket.sequence, frame: frame)
        try await settledStep(.closeSocket(socket: socket.sequence, frame: frame), known: known, "the WebSocket closed from outside")
    }

    /// Opens the socket, holding the turn already; its reader is the session's task, so a replay reads as the client did.
    func openSocketNow(_ request: NetworkRequest,
                       receive: @escaping @Sendable (OutsideSocket.Event) -> Void = { _ in }) async throws(HostError) -> OutsideRequest {
        let runtime = try live()
        let opened = OutsideRequest()
        await runtime.clock.spawnAndSettle { [network = runtime.network, outsideSockets] in
            switch await network.webSocketFromOutside(request, arrived: { opened.arrive($0) }) {
            case .answered(let response): opened.finish(.success(response))
            case .failed(let error): opened.finish(.failure(error))
            case .connection(let connection):
                let socket = OutsideSocket(sequence: opened.arrived?.sequence ?? 0, connection: connection)
                outsideSockets.add(socket)
                opened.finish(.success(NetworkResponse(head: HTTPResponse(status: .switchingProtocols))))
                do throws(TransportError) {
                    for try await message in connection.messages { receive(.message(message)) }
                    receive(.closed(await connection.serverClose()))
                } catch {
                    receive(.broken(error))
                }
                outsideSockets.remove(socket)
            }
        }
        guard opened.arrived != nil else {
            throw HostError(.unknownSession, "session '\(id)' was deleted as the WebSocket to \(request.url) opened; nothing was sent.")
        }
        outsideRequests.add(opened, keep: false)
        return opened
    }

    /// Sends `message` on socket `sequence` (the one `expecting`, when given), holding the turn already.
    func socketSendNow(_ message: WebSocketMessage, on sequence: Int, expecting: OutsideSocket? = nil) async throws(HostError) {
        let runtime = try live()
        guard let socket = outsideSockets.socket(sequence), expecting.map({ $0 === socket }) ?? true else {
            throw HostError(.unknownStream, "session '\(id)' has no open WebSocket \(sequence) of an outside client: it was closed, or the session was reset or rewound since it opened.")
        }
        // The send's outcome, kept as a request's from outside is.
        let sent = OutsideRequest()
        await runtime.clock.spawnAndSettle {
            do throws(TransportError) {
                try await socket.connection.send(message)
                sent.finish(.success(NetworkResponse(head: HTTPResponse(status: .ok))))
            } catch {
                sent.finish(.failure(error))
            }
        }
        if case .failure(let error)? = sent.result {
            throw HostError(.unknownStream, "WebSocket \(sequence) of session '\(id)' did not take the message: \(error.description).")
        }
    }

    /// Closes socket `sequence` from the client's side, holding the turn already.
    func socketCloseNow(_ sequence: Int, frame: WebSocketClose) async throws(HostError) {
        let runtime = try live()
        guard let socket = outsideSockets.socket(sequence) else { return }
        outsideSockets.remove(socket)
        await runtime.clock.spawnAndSettle { await socket.connection.close(code: frame.code, reason: frame.reason) }
    }
}
