import Benchmark

/// The in-process figures of BENCHMARKS.md. `scripts/benchmark` runs them with nginx started for the live
/// references and reads their percentiles; the benchmark names are what it looks for, so keep them stable.
let benchmarks: @Sendable () -> Void = {
    sessionBenchmarks()
    testOverheadBenchmarks()
    feedReloadBenchmarks()
    networkExchangeBenchmarks()
    controlRequestBenchmarks()
    let walkThreads = WalkThreads()
    exploreBenchmarks(on: walkThreads)
    exploreEngineBenchmark(on: walkThreads)
    streamBenchmarks()
}

extension Benchmark.Configuration {
    /// Time and allocations per operation; bounded in time and count so a run always ends.
    static var perOperation: Benchmark.Configuration {
        Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                warmupIterations: 50, maxDuration: .seconds(3), maxIterations: 20_000)
    }
}
