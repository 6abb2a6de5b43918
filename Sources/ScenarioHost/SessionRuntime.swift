import Fakes
import Foundation
import ScenarioFormat
import Services

/// One generation of a session's moving parts, built from its scenario: clock, store, network fake and Model.
/// Resetting a session throws the generation away and builds a new one, so nothing of the old state survives.
struct SessionRuntime: Sendable {
    let clock: VirtualClock
    let store: any KeyValueService
    let model: ModelDriver

    /// Builds the services for `scenario`, creates its Model and starts the Model's `run()`, then lets it settle.
    static func start(_ scenario: Scenario, driver makeDriver: (Services) -> ModelDriver,
                      journal: @escaping @Sendable (NetworkExchange) async -> Void) async -> SessionRuntime {
        let clock = VirtualClock(start: scenario.clock.start, mode: scenario.clock.mode)
        let store = SeededKeyValueStore(seed: scenario.seed)
        let network = RoutedNetwork(routes: scenario.routes, unmatched: scenario.unmatched, clock: clock, journal: journal)
        let model = makeDriver(Services(network: network, keyValue: store, clock: clock))
        await clock.spawn(model.run)
        await clock.settle()
        return SessionRuntime(clock: clock, store: store, model: model)
    }

    /// Stops every task of this generation.
    func stop() async {
        await clock.shutDown()
    }
}
