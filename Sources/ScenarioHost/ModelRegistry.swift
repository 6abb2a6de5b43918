import Services

/// The Models a host can run, by name. Adding a Model is one ``register(_:)`` line in ``builtIn``.
public struct ModelRegistry: Sendable {
    private var factories: [String: @Sendable (Services) async -> ModelDriver] = [:]

    /// An empty registry.
    public init() {}

    /// Makes `type` available to scenarios under `type.name`.
    public mutating func register<M: Model>(_ type: M.Type) {
        factories[M.name] = { await ModelDriver(M.self, services: $0) }
    }

    /// The registered Model names, sorted.
    public var names: [String] { factories.keys.sorted() }

    func factory(for model: String) -> (@Sendable (Services) async -> ModelDriver)? {
        factories[model]
    }
}

extension ModelRegistry {
    /// A registry of `models`, each under its `name`.
    public init(_ models: [any Model.Type]) {
        self.init()
        for model in models { register(model) }
    }
}
