public import Fakes
public import Services

/// The Models a host can run, by name, each with the description derived from its declaration, and the services
/// a team defines for them.
public struct ModelRegistry: Sendable {
    private struct Entry: Sendable {
        let description: ModelDescription
        let makeDriver: @Sendable (ModelServices) async -> ModelDriver
        /// The figures of the memos its sessions share.
        let memoFigures: @Sendable () -> [MemoFigures]
    }

    private var entries: [String: Entry] = [:]
    /// The services a team defines, sorted by name; every session gets each of them.
    public private(set) var services: [ServiceDefinition] = []

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
        let actions = DecodedActions<M.Action>(of: M.name)
        let states = StateEncoding<M.State>(of: M.name)
        entries[M.name] = Entry(description: description, makeDriver: {
            await ModelDriver(M.self, description: description, actions: actions, states: states, services: $0)
        }, memoFigures: { [actions.memo.figures] + (states.figures().map { [$0] } ?? []) })
    }

    /// Makes `service` available to every session, configured by the scenario section of its name.
    ///
    /// A name that is a built-in section (`clock`, `network`, …), not lower camel case, or given twice is a
    /// programming error of the daemon's `main` and stops it at start with the reason.
    public mutating func register(_ service: ServiceDefinition) {
        precondition(!Self.reservedNames.contains(service.name),
                     "the service name '\(service.name)' is a built-in scenario section; give the ServiceKey another name.")
        precondition(service.name.first?.isLowercase == true && service.name.allSatisfy { $0.isLetter || $0.isNumber },
                     "the service name '\(service.name)' must be lower camel case letters and digits (it is a scenario section and a URL segment).")
        precondition(!services.contains { $0.name == service.name }, "two services are named '\(service.name)'; give each a name of its own.")
        services.append(service)
        services.sort { $0.name < $1.name }
    }

    /// Section names a team's service cannot take.
    static let reservedNames: Set = ["description", "model", "extends", "clock", "keyValue", "random", "schedule", "network"]

    /// The registered Model names, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// Every registered Model's actions, arguments and keys, sorted by name.
    public var descriptions: [ModelDescription] { names.compactMap { entries[$0]?.description } }

    /// The figures of every Model's memos, by Model name.
    var memoFigures: [MemoFigures] { names.flatMap { entries[$0]?.memoFigures() ?? [] } }

    func factory(for model: String) -> (@Sendable (ModelServices) async -> ModelDriver)? {
        entries[model]?.makeDriver
    }
}

extension ModelRegistry {
    /// A registry of `models`, each under its `name`, and of the `services` a team defines for them.
    public init(_ models: [any Model.Type], services: [ServiceDefinition] = []) {
        self.init()
        for model in models { register(model) }
        for service in services { register(service) }
    }
}
