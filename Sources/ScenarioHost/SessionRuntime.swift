import Fakes
import Foundation
import LiveServices
import Logging
import ScenarioFormat
import Services

/// One generation of a session's moving parts, built from its scenario: clock, store, network and Model.
/// Resetting a session throws the generation away and builds a new one, so nothing of the old state survives.
///
/// This is the one place that chooses implementations: fakes, or live ones where the scenario asks for them.
/// A scenario with no live route gets no network client at all, so it cannot open a network socket.
struct SessionRuntime: Sendable {
    let clock: VirtualClock
    let store: any KeyValueService
    let model: ModelDriver
    /// When the generation started, on its clock.
    let startedAt: Date
    /// The recording, for a `record` scenario.
    let recorder: Recorder?
    private let liveNetwork: LiveNetwork?

    /// Where a generation's parts come from besides the scenario.
    struct Inputs: Sendable {
        var makeDriver: @Sendable (Services) async -> ModelDriver
        var journal: @Sendable (NetworkExchange) async -> Void
        var durableStores: DurableStores
        var logger: Logger
    }

    /// Builds the services for `scenario`, creates its Model and starts the Model's `run()`, then lets it settle.
    /// A durable store is reset to the seed when `resetStore` is set (a session reset).
    static func start(_ scenario: Scenario, _ inputs: Inputs, resetStore: Bool = false) async throws(HostError) -> SessionRuntime {
        let clock = VirtualClock(start: scenario.clock.start, mode: scenario.clock.mode)
        let store: any KeyValueService
        switch scenario.keyValueStore {
        case .memory:
            store = SeededKeyValueStore(seed: scenario.seed)
        case .durable:
            let durable = try await inputs.durableStores.store(for: scenario)
            if resetStore {
                do { try await durable.replaceAll(with: scenario.seed) } catch {
                    throw HostError(.storeFailed, "cannot reset the durable store of scenario '\(scenario.name)': \(error)")
                }
            }
            store = durable
        }

        var liveNetwork: LiveNetwork?
        var recorder: Recorder?
        var upstream: (any NetworkService)?
        if scenario.usesLiveNetwork {
            let settings = scenario.network
            let live = LiveNetwork(configuration: LiveNetworkConfiguration(
                connectTimeout: settings.connectTimeout, readTimeout: settings.readTimeout,
                redirects: settings.redirects, forward: settings.forward), logger: inputs.logger)
            liveNetwork = live
            upstream = live
            if settings.mode == .record {
                recorder = Recorder(forwardingTo: live)
                upstream = recorder
            }
        }
        let network = RoutedNetwork(routes: scenario.routes, unmatched: scenario.unmatched, clock: clock,
                                    upstream: upstream, unmatchedGoesUpstream: scenario.network.mode != .fake,
                                    journal: inputs.journal)
        let model = await inputs.makeDriver(Services(network: network, keyValue: store, clock: clock))
        let startedAt = await clock.now()
        await clock.spawn(model.run)
        await clock.settle()
        return SessionRuntime(clock: clock, store: store, model: model, startedAt: startedAt, recorder: recorder,
                              liveNetwork: liveNetwork)
    }

    /// Stops every task of this generation and closes its network client.
    func stop() async {
        await clock.shutDown()
        await liveNetwork?.shutdown()
    }
}
