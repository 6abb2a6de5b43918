import Fakes
import Foundation
import HTTPTypes
import Services
import SessionRuntime

/// A Model built by hand from fakes, the way the Services-layer pattern tests a Model without any host.
struct ModelHarness<M: Model> {
    let model: M
    let clock: VirtualClock
    let store: SeededKeyValueStore
    let journal: ExchangeLog

    init(routes: [Route], seed: [String: Data] = [:]) async {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
        let store = SeededKeyValueStore(seed: seed)
        let journal = ExchangeLog()
        let network = RoutedNetwork(routes: routes, clock: clock) { await journal.append($0) }
        self.model = await M(services: ModelServices(network: network, keyValue: store, clock: clock, random: SeededRandom(seed: 0)))
        self.clock = clock
        self.store = store
        self.journal = journal
    }

    /// Starts the Model's own work and waits until it settles.
    func start() async {
        let model = model
        clock.spawn { await model.run() }
        await clock.settle()
    }

    func perform(_ action: M.Action) async {
        let model = model
        clock.spawn { await model.perform(action) }
        await clock.settle()
    }
}

actor ExchangeLog {
    private(set) var entries: [NetworkExchange] = []
    func append(_ entry: NetworkExchange) { entries.append(entry) }
}

func answer(_ status: Int, json: String, delay: Duration = .zero) -> RouteOutcome {
    RouteOutcome(.response(NetworkResponse(status: status, headerFields: [.contentType: "application/json"], body: Data(json.utf8))), delay: delay)
}
