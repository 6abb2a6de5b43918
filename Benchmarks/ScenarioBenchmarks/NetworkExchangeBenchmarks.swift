import Benchmark
import Fakes
import FeedReader
import Foundation
import HTTPTypes
import LiveServices
import ScenarioFormat
import ScenarioHost
import Services
import SessionRuntime

/// Target 5 (fakes): one network exchange as a Model makes it, answered by the fake's routes or by the live
/// network service from nginx. No session around it, so the allocations are the exchange's own.
func networkExchangeBenchmarks() {
    Benchmark("exchange: fake network", configuration: .perOperation) { benchmark, network in
        await exchange(network, benchmark)
    } setup: {
        let catalog = ScenarioCatalog.load(from: [BenchmarkInputs.shippedScenarios], models: BenchmarkInputs.models.names)
        guard let scenario = catalog.scenarios["first-launch"] else {
            throw BenchmarkInputError("scenario first-launch is missing from \(BenchmarkInputs.shippedScenarios.path)")
        }
        let clock = VirtualClock(start: scenario.clock.start, mode: scenario.clock.mode)
        return RoutedNetwork(routes: scenario.routes, unmatched: scenario.unmatched, clock: clock, journal: { _ in })
    }

    Benchmark("exchange: live network to nginx", configuration: .perOperation) { benchmark, network in
        await exchange(network, benchmark)
    } setup: {
        let origin = try BenchmarkInputs.nginxOrigin()
        return LiveNetwork(configuration: LiveNetworkConfiguration(forward: ["https://www.cocoawithlove.com": origin]))
    }
}

private func exchange(_ network: any NetworkService, _ benchmark: Benchmark) async {
    do {
        let response = try await network.send(NetworkRequest(method: .get, url: FeedReader.feedURL,
                                                             headerFields: [.accept: "application/feed+json"]))
        if response.head.status.code != 200 { benchmark.error("the feed answered \(response.head.status.code)") }
    } catch {
        benchmark.error("\(error)")
    }
}
