import Benchmark
import ScenarioHost

/// Target 3 (in process): what a test pays to get an isolated, settled session and drive it once.
func sessionBenchmarks() {
    Benchmark("session: create offline-demo + first action", configuration: .perOperation) { benchmark, host in
        do {
            let session = try await host.createSession(of: "offline-demo")
            try await session.perform("reload")
            benchmark.stopMeasurement()
            // Deleting is not part of the figure, but keeps the host at one session.
            try await host.deleteSession(session.id)
        } catch {
            benchmark.error("\(error)")
        }
    } setup: {
        try BenchmarkInputs.host()
    }
}
