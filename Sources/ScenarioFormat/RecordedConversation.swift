public import Fakes
public import Services

/// A WebSocket conversation as a recording session saw it: every message either way with its offset from the
/// handshake, measured in real time, and how the server closed the connection.
public struct RecordedConversation: Sendable, Hashable {
    /// One message and when it passed.
    public struct Message: Sendable, Hashable {
        /// How long after the handshake.
        public var offset: Duration
        /// The message.
        public var message: WebSocketMessage
        /// True for the Model's message to the server; false for the server's.
        public var sent: Bool

        /// A message at `offset`.
        public init(offset: Duration, message: WebSocketMessage, sent: Bool) {
            self.offset = offset
            self.message = message
            self.sent = sent
        }
    }

    /// The messages in the order they passed.
    public var messages: [Message]
    /// The server's close, if it closed the connection before the recording was saved.
    public var close: WebSocketScript.Close?

    /// A conversation.
    public init(messages: [Message] = [], close: WebSocketScript.Close? = nil) {
        self.messages = messages
        self.close = close
    }
}
