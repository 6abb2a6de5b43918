package import Foundation
public import Services

/// How a daemon builds a service a team defines: its fake, configured by the scenario's section named after the
/// service's key, and optionally its live implementation (a scenario says `NAME: live`).
///
/// The fake's configuration *is* its initial state: the section decodes into `State` (with the same
/// file:line:column errors as every built-in section; an `extends` child's section is merged into its parent's,
/// key by key), the control API reads and replaces it, and a session reset goes back to it.
///
/// ```swift
/// let notifications = ServiceDefinition(NotifierKey.self,
///                                       description: "Notifications the user is sent",
///                                       initialState: Inbox()) { context in FakeNotifier(context: context) }
/// await Daemon.main(name: "todod", version: "1.0.0", models: [TodoList.self], services: [notifications])
/// ```
public struct ServiceDefinition: Sendable {
    /// The section name and API name, ``/Services/ServiceKey/name``.
    public let name: String
    /// One line saying what the service is, for the JSON Schema and `GET /v1/sessions/{id}/services`.
    public let description: String
    /// The `State` type's name, for messages.
    public let stateType: String
    /// Whether scenarios may choose the live implementation.
    public var hasLive: Bool { makeLive != nil }
    /// The top-level fields of the state, as its `Decodable` conformance reads them.
    public let fields: [ArgumentDescription]
    /// The state's shape to full depth (nested objects, lists, enums), as its `Decodable` conformance reads it: the
    /// JSON Schema's section and the check of a scenario's section, which lists every problem, are made from it.
    /// Make an enum `CaseIterable` so that its values are listed (and suggested when one is misspelt).
    public let shape: ValueShape
    /// The state a scenario without the section starts from.
    package let initialState: any Sendable
    /// Decodes a state from JSON (a scenario section, or a `PUT` body).
    package let decode: @Sendable (Data) throws -> any Sendable
    /// Encodes a state as JSON.
    package let encode: @Sendable (any Sendable) -> JSONValue
    /// Builds the fake for one session generation: the service, and the handle the host reads and replaces its state by.
    package let makeFake: @Sendable (_ state: any Sendable, _ environment: FakeEnvironment) -> (service: any Sendable, control: ServiceFakeControl)
    /// Builds the live implementation.
    package let makeLive: (@Sendable () -> any Sendable)?

    /// Defines the service of `key`.
    /// - Parameters:
    ///   - key: The key the Model reads the service with.
    ///   - description: One line saying what the service is.
    ///   - initialState: The fake's state when a scenario has no section for it.
    ///   - fake: Builds the fake from its context, once per session and again on every reset.
    ///   - live: Builds the live implementation, for scenarios that say `NAME: live`; nil when there is none.
    public init<Key: ServiceKey, State: Codable & Sendable & Equatable>(
        _ key: Key.Type, description: String, initialState: State,
        fake: @escaping @Sendable (ServiceFakeContext<State>) -> Key.Value,
        live: (@Sendable () -> Key.Value)? = nil
    ) {
        name = Key.name
        self.description = description
        stateType = String(describing: State.self)
        fields = ArgumentDescription.fields(of: State.self)
        self.initialState = initialState
        shape = ValueShape(of: State.self, example: try? JSONValue(json: JSONEncoder.services.encode(initialState)))
        decode = { data in try JSONDecoder.services.decode(State.self, from: data) }
        encode = { state in
            // State is plain Codable data; encoding fails only for a programming error (a NaN, say).
            (try? JSONValue(json: JSONEncoder.services.encode(state as! State))) ?? .null
        }
        // The erased values are always this definition's `State`: they come from `decode` or `initialState`.
        makeFake = { (state: any Sendable, environment: FakeEnvironment) -> (service: any Sendable, control: ServiceFakeControl) in
            let context = ServiceFakeContext<State>(name: Key.name, state: state as! State, clock: environment.clock,
                                                    random: environment.random, journal: environment.journal)
            let control = ServiceFakeControl(
                version: { context.version },
                state: { context.state },
                replace: { context.replace(with: $0 as! State) })
            let service: Key.Value = fake(context)
            return (service, control)
        }
        if let live {
            makeLive = { live() }
        } else {
            makeLive = nil
        }
    }
}

/// What a session lends the fakes of a team's services.
package struct FakeEnvironment: Sendable {
    package var clock: any ClockService
    package var random: any RandomService
    package var journal: @Sendable (_ operation: String, _ detail: String?, _ outcome: String?) async -> Void

    package init(clock: any ClockService, random: any RandomService,
                 journal: @escaping @Sendable (_ operation: String, _ detail: String?, _ outcome: String?) async -> Void) {
        self.clock = clock
        self.random = random
        self.journal = journal
    }
}

/// The host's handle on one fake's state, type-erased (the values are the definition's `State`).
package struct ServiceFakeControl: Sendable {
    package let version: @Sendable () -> Int
    package let state: @Sendable () -> any Sendable
    package let replace: @Sendable (any Sendable) -> Void
}
