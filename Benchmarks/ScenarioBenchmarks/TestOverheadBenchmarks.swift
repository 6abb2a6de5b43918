import Benchmark
import Foundation
import ScenarioClient
import ScenarioTesting

/// What one test pays in ScenarioTesting's in-process mode: open a session of offline-demo, perform an action,
/// read the state, delete the session — the same four steps the harness times over the socket.
func testOverheadBenchmarks() {
    Benchmark("test: withScenario create + action + state + delete, in process", configuration: .perOperation) { benchmark, daemon in
        do {
            try await withScenario("offline-demo", daemon: daemon) { session in
                try await session.perform("reload")
                _ = try await session.client.state(session: session.id)
            }
        } catch {
            benchmark.error("\(error)")
        }
    } setup: {
        try TestDaemon.inProcess(models: BenchmarkInputs.modelTypes, scenarios: BenchmarkInputs.shippedScenarios.path)
    }
}
