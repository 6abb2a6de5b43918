public import Services

/// Models whose `run()` loop ticks every virtual second, as a to-do list looks at its clock every minute: between
/// two sleeps the work hops to the Model's isolation and back through the clock. A clock move of ten minutes must
/// see all 600 ticks, so a settle that returns while a tick is between two hops shows as a missing tick.
@MainActor
public final class Metronome: Model {
    public nonisolated static let name = "Metronome"
    public nonisolated static let actionNames = ["restart"]

    public enum Action: Decodable, Sendable {
        /// Counts from zero again.
        case restart
    }

    public struct State: Encodable, Sendable {
        public var ticks = 0
    }

    public private(set) var state = State()
    private let clock: any ClockService

    public init(services: ModelServices) {
        clock = services.clock
    }

    public func perform(_ action: Action) async {
        state.ticks = 0
    }

    public func run() async {
        while true {
            do { try await clock.sleep(for: .seconds(1)) } catch { return }
            _ = await clock.now()
            state.ticks += 1
        }
    }
}

/// ``Metronome`` as an `actor` Model.
public actor Pendulum: Model {
    public static let name = "Pendulum"
    public static let actionNames = Metronome.actionNames
    public typealias Action = Metronome.Action
    public typealias State = Metronome.State

    public private(set) var state = State()
    private let clock: any ClockService

    public init(services: ModelServices) {
        clock = services.clock
    }

    public func perform(_ action: Action) async {
        state.ticks = 0
    }

    public func run() async {
        while true {
            do { try await clock.sleep(for: .seconds(1)) } catch { return }
            _ = await clock.now()
            state.ticks += 1
        }
    }
}
