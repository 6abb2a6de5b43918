public import Services

/// An actor whose action fans out with `async let` and a task group, each branch waiting on the virtual clock for
/// its own time, then gathers the results.
public actor FanOut: Model {
    public static let name = "FanOut"
    public static let actionNames = ["gather"]

    public enum Action: Decodable, Sendable {
        case gather
    }

    public struct State: Encodable, Sendable {
        public var results: [String] = []
        public var done = false
    }

    public private(set) var state = State()
    private let clock: any ClockService

    public init(services: ModelServices) {
        clock = services.clock
    }

    public func perform(_ action: Action) async {
        Task {
            async let first = branch("async-let-a", seconds: 10)
            async let second = branch("async-let-b", seconds: 20)
            let grouped = await withTaskGroup(of: String.self) { group in
                for (name, seconds) in [("group-c", 30), ("group-d", 5), ("group-e", 15)] {
                    group.addTask { await self.branch(name, seconds: seconds) }
                }
                var names: [String] = []
                for await name in group { names.append(name) }
                return names
            }
            finish(await [first, second] + grouped)
        }
    }

    private nonisolated func branch(_ name: String, seconds: Int) async -> String {
        try? await clock.sleep(for: .seconds(seconds))
        return name
    }

    private func finish(_ results: [String]) {
        state.results = results
        state.done = true
    }

    public func run() async {}
}
