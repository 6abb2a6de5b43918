public import Foundation

/// One thing to do.
public struct TodoItem: Codable, Sendable, Hashable {
    /// `todo-1`, `todo-2`… in the order they were added; never reused.
    public var id: String
    /// Sent as the request's `Idempotency-Key`, so a retried POST never makes a second item on the server. It
    /// comes from the Model's randomness service, so a scenario gives the same keys every run.
    public var key: UUID?
    public var title: String
    /// When it is due, on the Model's clock.
    public var due: Date
    public var isDone = false
    /// Past its due date and not done, as of the Model's last look at its clock.
    public var isOverdue = false
    /// Whether the server has accepted it.
    public var isSynced = false
}

/// What a client sees of the list.
public struct TodoListState: Encodable, Sendable {
    public var items: [TodoItem] = []
    /// The Model's clock when it last looked.
    public var now: Date?
    /// The last failure, in words, or nil.
    public var error: String?
}
