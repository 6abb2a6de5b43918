/// Application logic that reaches the world only through ``Services``.
///
/// The host constructs a Model with its services, calls ``run()`` once in a task of its own, and calls
/// ``perform(_:)`` for each action a client sends. Both may suspend on the clock; the host observes the Model
/// only when every such task is finished or waiting on the clock, so state is read at well-defined moments.
public protocol Model: Actor {
    /// Everything a client may observe, encoded as JSON for them.
    associatedtype State: Encodable & Sendable
    /// What a client may ask; decoded from `{"<name>": {<arguments>}}`, the shape Swift synthesises for enums.
    associatedtype Action: Decodable & Sendable

    /// The name scenarios use to pick this Model (`model: FeedReader`).
    static var name: String { get }
    /// The names of ``Action``'s cases, so that an unknown action is told apart from bad arguments.
    static var actionNames: [String] { get }

    /// Creates the Model. It must not start work here: ``run()`` does.
    init(services: Services)

    /// The current state.
    var state: State { get }

    /// Performs one action and returns when it is done (or waiting on the clock, as the host sees it).
    func perform(_ action: Action) async

    /// The Model's own work (loading saved state, periodic refresh); returns when done or when cancelled.
    func run() async
}
