public import Services

/// The Models a host can run, by name, each with the description derived from its declaration.
public struct ModelRegistry: Sendable {
    private struct Entry: Sendable {
        let description: ModelDescription
        let makeDriver: @Sendable (Services) async -> ModelDriver
    }

    private var entries: [String: Entry] = [:]

    /// An empty registry.
    public init() {}

    /// Makes `type` available to scenarios under `type.name`.
    ///
    /// Its actions and their arguments are read from its `Action` type here, once; a name in `actionNames` that
    /// is not a case of `Action`, or a second Model of the same name, is a programming error of the daemon's
    /// `main` and stops it at start with the reason.
    public mutating func register<M: Model>(_ type: M.Type) {
        let description: ModelDescription
        do {
            description = try ModelDescription(of: M.self)
        } catch {
            preconditionFailure("cannot register Model \(M.name): \(error)")
        }
        precondition(entries[M.name] == nil, "two Models are named '\(M.name)'; give each Model a name of its own.")
        entries[M.name] = Entry(description: description) { await ModelDriver(M.self, description: description, services: $0) }
    }

    /// The registered Model names, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// Every registered Model's actions, arguments and keys, sorted by name.
    public var descriptions: [ModelDescription] { names.compactMap { entries[$0]?.description } }

    func factory(for model: String) -> (@Sendable (Services) async -> ModelDriver)? {
        entries[model]?.makeDriver
    }
}

extension ModelRegistry {
    /// A registry of `models`, each under its `name`.
    public init(_ models: [any Model.Type]) {
        self.init()
        for model in models { register(model) }
    }
}
