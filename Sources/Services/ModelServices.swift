/// The bundle of services a Model receives at construction. Whoever builds it chooses live or fake implementations.
public struct ModelServices: Sendable {
    /// HTTP requests.
    public var network: any NetworkService
    /// Durable or seeded key-value state.
    public var keyValue: any KeyValueService
    /// Time.
    public var clock: any ClockService
    /// Identifiers and random choices.
    public var random: any RandomService
    /// The services a team defines, by ``ServiceKey/name``.
    private var defined: [String: any Sendable] = [:]

    /// Bundles the built-in services; add a team's own with ``subscript(_:)``.
    public init(network: any NetworkService, keyValue: any KeyValueService, clock: any ClockService,
                random: any RandomService) {
        self.network = network
        self.keyValue = keyValue
        self.clock = clock
        self.random = random
    }

    /// A service a team defines, by its key.
    ///
    /// A daemon supplies every service its `main` registers to every session; reading one that was never
    /// supplied is a programming error and stops the program with the key's name and the fix.
    public subscript<Key: ServiceKey>(_ key: Key.Type) -> Key.Value {
        get {
            guard let service = defined[Key.name] as? Key.Value else {
                preconditionFailure("no service '\(Key.name)' (\(Key.self)) was supplied: register its ServiceDefinition with the daemon (Daemon.main(…, services:)), or set services[\(Key.self).self] where ModelServices is built by hand.")
            }
            return service
        }
        set { defined[Key.name] = newValue }
    }

    /// Supplies a service by its key's name, for the host, which holds it type-erased.
    package mutating func supply(_ service: any Sendable, named name: String) {
        defined[name] = service
    }
}
