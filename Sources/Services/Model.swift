/// Application logic that reaches the world only through ``ModelServices``.
///
/// A Model is an `actor`, or a class isolated to a global actor — `@MainActor final class`, as most app Models
/// are — hosted as it is. The host constructs it with its services, calls ``run()`` once in a task of its own,
/// and calls ``perform(_:)`` for each action a client sends. Both may suspend on the clock; the host observes the
/// Model only when every such task is finished or waiting on the clock, so state is read at well-defined moments.
///
/// To stay deterministic (the same scenario and actions give byte-identical state), a Model takes time, sleeping,
/// HTTP, saved state, identifiers and random numbers from its services only: not `Date()`, `Task.sleep`,
/// `URLSession`, `UUID()`, `Int.random(in:)` or a thread of its own.
/// The static requirements are read from any thread: in a `@MainActor` class, declare them `nonisolated`.
public protocol Model: AnyObject, Sendable {
    /// Everything a client may observe, encoded as JSON for them.
    ///
    /// Make it `Hashable` (or at least `Equatable`) when you can: the host then encodes a state only the first time
    /// it sees it and gives the same bytes back for an equal one, which makes explorations and tests faster. Its
    /// `==` must then tell apart any two states that encode differently; a synthesized conformance does.
    associatedtype State: Encodable & Sendable
    /// What a client may ask; decoded from `{"<name>": {<arguments>}}`, the shape Swift synthesises for enums.
    associatedtype Action: Decodable & Sendable

    /// The name scenarios use to pick this Model (`model: FeedReader`).
    static var name: String { get }
    /// The names of ``Action``'s cases, so that an unknown action is told apart from bad arguments.
    static var actionNames: [String] { get }

    /// The key-value keys the Model reads and writes, each with what its value holds (served by
    /// `GET /v1/models`). Empty by default.
    static var keyValueKeys: [String: String] { get }

    /// Creates the Model. It must not start work here: ``run()`` does. (An actor's or a `@MainActor` class's
    /// own synchronous `init(services:)` satisfies this.)
    init(services: ModelServices) async

    /// The current state (an actor's or a `@MainActor` class's plain stored property satisfies this).
    var state: State { get async }

    /// Performs one action and returns when it is done (or waiting on the clock, as the host sees it).
    func perform(_ action: Action) async

    /// The Model's own work (loading saved state, periodic refresh); returns when done or when cancelled.
    func run() async
}

extension Model {
    /// No documented keys.
    public static var keyValueKeys: [String: String] { [:] }
}
