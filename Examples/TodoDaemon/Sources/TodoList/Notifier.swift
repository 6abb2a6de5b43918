public import Services

/// Shows the user a notification: the team's own service, beside the built-in ones. The Model sees only this
/// protocol; the daemon's `main` decides what implements it (in scenarios, `TodoFakes`' inbox).
public protocol Notifier: Sendable {
    /// Shows `notice`.
    /// - Throws: ``NotifierError/notAllowed`` when the user has turned notifications off.
    func notify(_ notice: Notice) async throws(NotifierError)
}

/// One notification.
public struct Notice: Codable, Sendable, Hashable {
    public var title: String
    public var body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}

/// Why a notification was not shown.
public enum NotifierError: Error, Sendable {
    /// The user has turned notifications off.
    case notAllowed
}

/// The key the Model reads its ``Notifier`` with; `notifications` is the service's scenario section.
public enum NotifierKey: ServiceKey {
    public typealias Value = any Notifier
    public static let name = "notifications"
}

extension ModelServices {
    /// Notifications, as the daemon supplies them.
    public var notifier: any Notifier { self[NotifierKey.self] }
}
