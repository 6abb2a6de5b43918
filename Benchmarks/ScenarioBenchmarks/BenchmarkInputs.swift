import Assistant
import FeedReader
import Foundation
import Ratings
import ScenarioFormat
import ScenarioHost
import Services
import TripPlanner

/// What the benchmarks read from outside: the shipped scenarios and, for the live references, nginx.
enum BenchmarkInputs {
    /// The repository's `scenarios/` directory, found from this file so the benchmark runs from any directory.
    static let shippedScenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios")

    /// The Models the shipped scenarios name: the daemon's own list (Sources/scenariod/main.swift), so that every
    /// shipped scenario loads.
    static let modelTypes: [any Model.Type] = [FeedReader.self, Ratings.self, Assistant.self, TripPlanner.self]

    /// ``modelTypes`` as a host's registry.
    static let models = ModelRegistry(modelTypes)

    /// The origin nginx serves the feed fixture on, e.g. `http://127.0.0.1:8080`, from `SCENARIOD_BENCH_NGINX`.
    static func nginxOrigin() throws -> String {
        guard let origin = ProcessInfo.processInfo.environment["SCENARIOD_BENCH_NGINX"], !origin.isEmpty else {
            throw BenchmarkInputError("SCENARIOD_BENCH_NGINX is not set: the live references need nginx serving "
                + "scenarios/first-launch/fixtures/feed.json as /feed.json; run them with scripts/benchmark, which starts it.")
        }
        return origin
    }

    /// This run's scratch directory (scenario files, sockets), created on first use.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A host over the shipped scenarios plus `extra` scenario files (name → scenario.yaml text) in a temporary
    /// directory.
    static func host(extra: [String: String] = [:]) throws -> SessionHost {
        var roots = [shippedScenarios]
        if !extra.isEmpty {
            let root = try scratchDirectory()
            for (name, text) in extra {
                let directory = root.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: directory.appendingPathComponent(ScenarioCatalog.fileName))
            }
            roots.append(root)
        }
        let catalog = ScenarioCatalog.load(from: roots, models: models.names)
        guard catalog.problems.isEmpty else {
            throw BenchmarkInputError("the benchmark scenarios have problems: \(catalog.problems)")
        }
        return SessionHost(catalog: catalog, models: models)
    }

    /// A FeedReader scenario whose feed comes from the live network service, forwarded to nginx.
    static func liveFeedScenario(origin: String) -> String {
        """
        description: FeedReader with its feed from nginx through the live network service.
        model: FeedReader
        clock:
          start: 2026-11-01T09:00:00Z
          mode: frozen
        network:
          mode: live
          forward:
            https://www.cocoawithlove.com: \(origin)
        """
    }
}

/// A benchmark that cannot run, and why.
struct BenchmarkInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
