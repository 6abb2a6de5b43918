public import Foundation

/// One WebSocket message.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)
}

/// How a WebSocket connection was closed: the close frame's code (1000 normal, 1001 going away, 1011 server error…)
/// and reason.
public struct WebSocketClose: Sendable, Hashable, Codable {
    /// The close code.
    public var code: Int
    /// The reason, possibly empty.
    public var reason: String

    /// A close frame.
    public init(code: Int, reason: String = "") {
        self.code = code
        self.reason = reason
    }
}

/// Where a ``WebSocketConnection``'s messages come from and go to: a scenario's scripted conversation, or a real
/// server.
public protocol WebSocketChannel: Sendable {
    /// The next message from the server, waiting for it; nil once the server has closed the connection.
    /// - Throws: ``TransportError`` when the connection broke; `.cancelled` when the calling task was cancelled.
    func receive() async throws(TransportError) -> WebSocketMessage?
    /// Sends `message` to the server.
    /// - Throws: ``TransportError`` when the connection is closed or broke.
    func send(_ message: WebSocketMessage) async throws(TransportError)
    /// Closes the connection from this side.
    func close(_ frame: WebSocketClose) async
    /// How the server closed the connection, once ``receive()`` has returned nil; nil before, or after a break.
    func serverClose() async -> WebSocketClose?
    /// The consumer let go of the connection (its last message iterator went away): close it if it is open. Called
    /// once, from any thread; it must not wait.
    func consumerLeft()
}

/// An open WebSocket connection as ``NetworkService/webSocket(_:)`` returns it: send messages, read the server's
/// with ``messages``, close it. Reading ends when the server closes; ``serverClose()`` then says how.
public struct WebSocketConnection: Sendable {
    /// The connection's two directions.
    public let channel: any WebSocketChannel

    /// A connection over `channel`.
    public init(channel: any WebSocketChannel) {
        self.channel = channel
    }

    /// The server's messages, in order; the sequence ends when the server closes the connection. Leaving the loop,
    /// or cancelling the task that reads, closes the connection.
    public var messages: WebSocketMessages { WebSocketMessages(channel: channel) }

    /// Sends `message` to the server.
    public func send(_ message: WebSocketMessage) async throws(TransportError) {
        try await channel.send(message)
    }

    /// Closes the connection from this side with `code` and `reason`.
    public func close(code: Int = 1000, reason: String = "") async {
        await channel.close(WebSocketClose(code: code, reason: reason))
    }

    /// How the server closed the connection, once ``messages`` has ended; nil if it has not, or it broke.
    public func serverClose() async -> WebSocketClose? {
        await channel.serverClose()
    }
}

/// A ``WebSocketConnection``'s incoming messages.
public struct WebSocketMessages: AsyncSequence, Sendable {
    public typealias Element = WebSocketMessage
    public typealias Failure = TransportError
    let channel: any WebSocketChannel

    /// The iterator; make one per connection.
    public func makeAsyncIterator() -> Iterator { Iterator(reader: Reader(channel: channel)) }

    /// Reads the server's messages in order; nil once the server has closed the connection.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next message, or nil once the server has closed the connection.
        public mutating func next() async throws(TransportError) -> WebSocketMessage? {
            try await reader.channel.receive()
        }

        /// The next message, or nil once the server has closed the connection.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(TransportError) -> WebSocketMessage? {
            try await reader.channel.receive()
        }
    }

    /// Tells the channel the consumer let go when the last iterator goes away.
    final class Reader: Sendable {
        let channel: any WebSocketChannel
        init(channel: any WebSocketChannel) { self.channel = channel }
        deinit { channel.consumerLeft() }
    }
}
