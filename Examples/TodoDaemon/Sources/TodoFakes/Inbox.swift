public import Foundation
import TodoList

/// The notification fake's whole state: whether the user allows notifications, and what was shown. A scenario's
/// `notifications:` section sets it (merged over ``init()``'s empty, allowing inbox), the control API reads and
/// replaces it, and a reset restores it.
public struct Inbox: Codable, Sendable, Equatable {
    /// Whether notifications are shown. `CaseIterable`, so the schema lists the values and a misspelt one in a
    /// scenario gets a suggestion.
    public enum Permission: String, Codable, Sendable, CaseIterable {
        case granted, denied
    }

    /// One notification shown, and when, on the session's clock.
    public struct Delivery: Codable, Sendable, Equatable {
        public var title: String
        public var body: String
        public var at: Date
    }

    public var permission: Permission
    /// Oldest first.
    public var delivered: [Delivery]

    /// Notifications allowed, none shown yet.
    public init() {
        permission = .granted
        delivered = []
    }
}
