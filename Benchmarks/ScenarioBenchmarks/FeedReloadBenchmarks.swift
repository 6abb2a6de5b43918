import Benchmark
import ScenarioHost
import Services

/// Target 4: the same FeedReader `reload`, its feed from the network fake and from the live network service
/// against nginx serving the same fixture on loopback. Both run through a session, as a test would drive them.
func feedReloadBenchmarks() {
    Benchmark("reload: FeedReader, fake network", configuration: .perOperation) { benchmark, session in
        await reload(session, benchmark)
    } setup: {
        try await BenchmarkInputs.host().createSession(of: "first-launch")
    }

    Benchmark("reload: FeedReader, live network to nginx", configuration: .perOperation) { benchmark, session in
        await reload(session, benchmark)
    } setup: {
        let origin = try BenchmarkInputs.nginxOrigin()
        let host = try BenchmarkInputs.host(extra: ["bench-live-feed": BenchmarkInputs.liveFeedScenario(origin: origin)])
        let session = try await host.createSession(of: "bench-live-feed")
        // A reload that failed would measure an error path, not a reload.
        let state = try await session.state()
        guard case .object(let fields) = try state.value(), fields["error"] == nil || fields["error"] == .null else {
            throw BenchmarkInputError("the live reload through \(origin) failed: \(String(decoding: state.jsonData, as: UTF8.self))")
        }
        return session
    }
}

private func reload(_ session: Session, _ benchmark: Benchmark) async {
    do {
        try await session.perform("reload")
    } catch {
        benchmark.error("\(error)")
    }
}
