import ControlAPI
import Fakes
import Foundation
import LiveServices
import Logging
import ScenarioFormat
import Services
import SessionRuntime

/// One generation of a session's moving parts, built from its scenario: clock, store, network and Model.
/// Resetting a session throws the generation away and builds a new one, so nothing of the old state survives.
///
/// This is the one place that chooses implementations: fakes, or live ones where the scenario asks for them.
/// A scenario with no live route gets no network client at all, so it cannot open a network socket.
struct SessionGeneration: Sendable {
    let clock: VirtualClock
    let store: any KeyValueService
    /// The network fake, whose conditions the control API switches.
    let network: RoutedNetwork
    let model: ModelDriver
    /// The fakes of the team's services, by name (a service the scenario runs live has none).
    let fakes: [String: ServiceFakeControl]
    /// When the generation started, on its clock.
    let startedAt: Date
    /// The recording, for a `record` scenario.
    let recorder: Recorder?
    private let liveNetwork: LiveNetwork?

    /// Where a generation's parts come from besides the scenario.
    struct Inputs: Sendable {
        var makeDriver: @Sendable (ModelServices) async -> ModelDriver
        var services: [ServiceDefinition]
        var journal: @Sendable (NetworkExchange) async -> Void
        var durableStores: DurableStores
        var logger: Logger
        /// The session's executor, which every generation's work runs on.
        var executor: SessionExecutor
        /// Where a recording's bytes are counted, and their bound.
        var held: SessionBytes
        var recordingBytes: Int
    }

    /// Builds the services for `scenario`, creates its Model and starts the Model's `run()`, then lets it settle.
    /// A durable store is reset to the seed when `resetStore` is set (a session reset).
    static func start(_ scenario: Scenario, _ inputs: Inputs, resetStore: Bool = false) async throws(HostError) -> SessionGeneration {
        // The session owns its Model's tasks (DESIGN §4): they run on its executor, in the order its seed picks.
        // Each generation starts the order over, so a rewind or a reset replays it.
        inputs.executor.order = SchedulingOrder(seed: scenario.scheduleSeed)
        let scope = SessionScope(executor: inputs.executor)
        let clock = VirtualClock(start: scenario.clock.start, mode: scenario.clock.mode, scope: scope)
        let base: any KeyValueService
        switch scenario.keyValueStore {
        case .memory:
            base = SeededKeyValueStore(seed: scenario.seed)
        case .durable:
            let durable = try await inputs.durableStores.store(for: scenario)
            if resetStore {
                do { try await durable.replaceAll(with: scenario.seed) } catch {
                    throw HostError(.storeFailed, "cannot reset the durable store of scenario '\(scenario.name)': \(error)")
                }
            }
            base = durable
        }
        let store = SessionKeyValueStore(store: base, scope: scope)

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
                recorder = Recorder(forwardingTo: live, byteLimit: inputs.recordingBytes, held: inputs.held)
                upstream = recorder
            }
        }
        let sequence = JournalSequence()
        let network = RoutedNetwork(routes: scenario.routes, unmatched: scenario.unmatched, clock: clock,
                                    upstream: upstream, unmatchedGoesUpstream: scenario.network.mode != .fake,
                                    sequence: sequence, journal: inputs.journal)
        let random: any RandomService = switch scenario.random {
        case .seeded(let seed): SeededRandom(seed: seed)
        case .system: SystemRandom()
        }
        var modelStore = store
        modelStore.checksCaller = true
        modelStore.answersFromOutside = scenario.keyValueStore == .durable
        var services = ModelServices(network: network, keyValue: modelStore, clock: clock, random: random)
        var fakes: [String: ServiceFakeControl] = [:]
        for definition in inputs.services {
            switch scenario.services[definition.name] ?? .fake(state: definition.initialState) {
            case .live:
                // The parser admits `live` only for a definition that has a live implementation.
                services.supply(definition.makeLive!(), named: definition.name)
            case .fake(let state):
                let journal = inputs.journal
                let environment = FakeEnvironment(clock: clock, random: random) { operation, detail, outcome in
                    await journal(NetworkExchange(
                        sequence: sequence.next(), time: clock.now(), method: operation,
                        url: "service:\(definition.name)", headers: [], body: detail, service: definition.name,
                        outcome: outcome))
                }
                let (service, control) = definition.makeFake(state, environment)
                services.supply(service, named: definition.name)
                fakes[definition.name] = control
            }
        }
        // Inside the scope, so a Task {} a Model's init starts (which it should not) is the session's too.
        let finished = services
        let model = await SessionScope.$current.withValue(scope) { await inputs.makeDriver(finished) }
        let startedAt = clock.now()
        await clock.spawnAndSettle(model.run)
        return SessionGeneration(clock: clock, store: store, network: network, model: model, fakes: fakes, startedAt: startedAt,
                              recorder: recorder, liveNetwork: liveNetwork)
    }

    /// The Model's state, read by a job of the session's, as the host's other calls into the session's actors are
    /// (``SessionExecutor/run(_:)``). A read from the caller's own task held the Model's actor outside the session:
    /// work of the Model's queued behind it then ran where the actor was let go, outside the session's executor, and
    /// an action could settle while its Model was still in it (the next state read showed `isBusy` true, a walk and
    /// its replay ended apart: 4 of 16 runs of the explore benchmarks before, 0 of 16 after).
    func state() async -> ModelState {
        await clock.scope.executor.run { [model] in await model.state() }
    }

    /// Runs `operation` on the session's network fake for the host, on the caller's thread with whatever work of the
    /// session it makes ready (``SessionExecutor/run(_:)``): the fake's actor runs on the session's executor, and a
    /// call from outside would otherwise go onto its queue and back, two thread switches per call.
    func onNetwork<T: Sendable, E: Error>(_ operation: @escaping @Sendable (RoutedNetwork) async throws(E) -> T) async throws(E) -> T {
        try await clock.scope.executor.run { [network] () async -> Result<T, E> in
            do throws(E) { return .success(try await operation(network)) } catch { return .failure(error) }
        }.get()
    }

    /// Stops every task of this generation and closes its network client.
    func stop() async {
        // Both run here rather than hop onto the session's queue and back: the network is the session's actor too,
        // and a call into it from outside woke the queue's thread and then the caller's, at every session's delete
        // (strace of the test benchmark, issue 52).
        await clock.scope.executor.run {
            await clock.shutDown()
            // A Model's read waiting on a scripted stream would otherwise wait for good, holding the whole session
            // (a soak deleting sessions mid-reply grew 10 MB a minute): it hears the stream end.
            await network.endOpenStreams()
        }
        await liveNetwork?.shutdown()
    }
}
