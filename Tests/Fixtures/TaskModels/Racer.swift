public import Services

/// An actor whose action starts several tasks at once, each noting when it ran: the order is the order the session
/// ran work that was ready together, so a scenario's `schedule.seed` decides it.
public actor Racer: Model {
    public static let name = "Racer"
    public static let actionNames = ["race"]

    public enum Action: Decodable, Sendable {
        case race(runners: Int)
    }

    public struct State: Encodable, Sendable {
        public var arrivals: [Int] = []
    }

    public private(set) var state = State()

    public init(services: ModelServices) {}

    public func perform(_ action: Action) async {
        guard case .race(let runners) = action else { return }
        await withTaskGroup(of: Void.self) { group in
            for runner in 0..<runners {
                group.addTask { await self.arrive(runner) }
            }
        }
    }

    private func arrive(_ runner: Int) {
        state.arrivals.append(runner)
    }

    public func run() async {}
}
