/// Names a service a team defines for its Models, beyond the built-in network, key-value store, clock and
/// randomness: a payment SDK, a notification inbox, a location feed.
///
/// The key lives beside the service's protocol, in the Model's module, and the Model reads the service from
/// ``ModelServices`` with it; the daemon's `main` registers what builds it (a fake configured from the scenario's
/// section named ``name``, and optionally a live implementation):
///
/// ```swift
/// public protocol Notifier: Sendable { func post(_ title: String) async throws }
/// public enum NotifierKey: ServiceKey {
///     public typealias Value = any Notifier
///     public static let name = "notifications"
/// }
/// extension ModelServices {
///     public var notifier: any Notifier { self[NotifierKey.self] }
/// }
/// ```
public protocol ServiceKey: Sendable {
    /// What the Model receives: usually `any` of the service's protocol.
    associatedtype Value: Sendable
    /// The service's section in `scenario.yaml` and its name in the control API (`/services/NAME`): lower camel
    /// case, distinct from the built-in sections.
    static var name: String { get }
}
