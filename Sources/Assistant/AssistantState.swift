/// Everything a client sees of an ``Assistant`` Model.
public struct AssistantState: Codable, Sendable, Hashable {
    /// The conversation, oldest first; the last message grows while a reply streams in.
    public var messages: [ChatMessage] = []
    /// True while a reply is streaming.
    public var isReplying = false
    /// A sentence to show the user about the last failure, or nil.
    public var error: String?
    /// Whether the presence channel says the assistant is online.
    public var assistantOnline = false
    /// Whether the presence channel says the assistant is typing.
    public var assistantTyping = false
    /// Why the presence channel is down, or nil while it is up (or closed normally).
    public var presenceError: String?

    /// An empty conversation.
    public init() {}
}

/// One message of the conversation.
public struct ChatMessage: Codable, Sendable, Hashable {
    /// Who wrote it.
    public enum Role: String, Codable, Sendable {
        case user, assistant
    }

    /// How far an assistant's message got.
    public enum Status: String, Codable, Sendable {
        /// Still arriving.
        case streaming
        /// Finished by the server's `done` event.
        case complete
        /// The user stopped it.
        case stopped
        /// Cut off, refused, or an error event ended it; `retry` asks again.
        case failed
    }

    public var role: Role
    public var text: String
    /// For the assistant's messages; a user's message is complete when sent.
    public var status: Status

    /// A message.
    public init(role: Role, text: String, status: Status = .complete) {
        self.role = role
        self.text = text
        self.status = status
    }
}
