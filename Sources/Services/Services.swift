/// The bundle of services a Model receives at construction. Whoever builds it chooses live or fake implementations.
public struct Services: Sendable {
    /// HTTP requests.
    public var network: any NetworkService
    /// Durable or seeded key-value state.
    public var keyValue: any KeyValueService
    /// Time.
    public var clock: any ClockService

    /// Bundles the three services.
    public init(network: any NetworkService, keyValue: any KeyValueService, clock: any ClockService) {
        self.network = network
        self.keyValue = keyValue
        self.clock = clock
    }
}
