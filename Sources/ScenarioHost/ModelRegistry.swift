import Services

/// The Models a host can run, by name. Adding a Model is one ``register(_:)`` line in ``builtIn``.
public struct ModelRegistry: Sendable {
    private var factories: [String: @Sendable (Services) -> ModelDriver] = [:]

    /// An empty registry.
    public init() {}

    /// Makes `type` available to scenarios under `type.name`.
    public mutating func register<M: Model>(_ type: M.Type) {
        factories[M.name] = { ModelDriver(M.self, services: $0) }
    }

    /// The registered Model names, sorted.
    public var names: [String] { factories.keys.sorted() }

    func factory(for model: String) -> (@Sendable (Services) -> ModelDriver)? {
        factories[model]
    }
}
