public import Observation
public import Services

/// An app-style Model, as SwiftUI-era apps write them: a `@MainActor @Observable` class whose action starts a
/// timer with `Task {}`. Hosted unchanged; the session owns the timer.
@MainActor @Observable
public final class Kettle: Model {
    public nonisolated static let name = "Kettle"
    public nonisolated static let actionNames = ["boil"]

    public enum Action: Decodable, Sendable {
        case boil
    }

    public struct State: Encodable, Sendable {
        public var status = "cold"
    }

    public private(set) var state = State()
    @ObservationIgnored private let clock: any ClockService

    public init(services: ModelServices) {
        clock = services.clock
    }

    public func perform(_ action: Action) async {
        state.status = "heating"
        Task {
            try await clock.sleep(for: .seconds(90))
            state.status = "ready"
        }
    }

    public func run() async {}
}
