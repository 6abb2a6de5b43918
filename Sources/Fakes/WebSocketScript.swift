package import Foundation
public import Services

/// A WebSocket route's conversation as a scenario writes it: what the server sends once connected and when, how it
/// replies to the Model's messages (chosen by matchers, as requests are), and when it closes.
public struct WebSocketScript: Sendable {
    /// A message the server sends, at an offset from the moment it is triggered (the connection, or a reply's cue).
    public struct Send: Sendable, Hashable {
        /// How long after the trigger, on the session's clock.
        public var offset: Duration
        /// The message.
        public var message: WebSocketMessage

        /// A message sent `offset` after its trigger.
        public init(offset: Duration, message: WebSocketMessage) {
            self.offset = offset
            self.message = message
        }
    }

    /// The server's answer to a message of the Model's: the first reply whose matcher matches answers.
    public struct Reply: Sendable {
        /// Matches the Model's message as a request body: `bodyText`, `body` (a JSON subset) and `bodyFields`.
        public var when: RequestMatcher
        /// What the server sends, each at its offset from the message.
        public var send: [Send]
        /// Answers one message only: once it has, the replies after it are tried instead (a recording's second
        /// answer to the same message).
        public var once: Bool

        /// A reply.
        public init(when: RequestMatcher, send: [Send], once: Bool = false) {
            self.when = when
            self.send = send
            self.once = once
        }
    }

    /// The server closing the connection: when (from the connection) and with which close frame.
    public struct Close: Sendable, Hashable {
        /// How long after the connection opened.
        public var offset: Duration
        /// The close frame.
        public var frame: WebSocketClose

        /// A close at `offset` with `frame`.
        public init(offset: Duration, frame: WebSocketClose) {
            self.offset = offset
            self.frame = frame
        }
    }

    /// What the server sends once connected.
    public var onConnect: [Send]
    /// How it answers the Model's messages.
    public var replies: [Reply]
    /// When it closes; nil: it stays open until the Model closes it.
    public var close: Close?

    /// A conversation.
    public init(onConnect: [Send] = [], replies: [Reply] = [], close: Close? = nil) {
        self.onConnect = onConnect
        self.replies = replies
        self.close = close
    }
}

extension WebSocketMessage {
    /// The message's bytes: a text's UTF-8, or the binary data.
    package var bytes: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }
}
