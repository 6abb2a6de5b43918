import Foundation
import ScenarioClient
import ScenarioExplore
import ScenarioTesting
import Testing

/// docs/explore-a-model.md's worked example, run as the page shows it: the commands verbatim, in a shell, against
/// scenariod on the shipped scenarios, and the outcome the page describes.
@Suite struct ExploreDocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The page's commands, one a line, in its order.
    static let commands = """
        scenarioctl explore offline-demo --walks 200 --seed 1
        scenarioctl explore offline-demo --properties docs/examples/reload-within-a-second.yaml --walk-file reload.walk.json
        scenarioctl play reload.walk.json
        """.split(separator: "\n").map(String.init)

    @Test func theWorkedExampleFindsShrinksAndReplaysTheSlowReload() async throws {
        let daemon = try await ScenarioDaemon.start(binary: try ScenarioDaemon.executable(named: "scenariod"),
                                                    scenarios: Self.repository.appendingPathComponent("scenarios").path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-docs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The page's paths are the repository's; the walk file goes to a directory of the test's own.
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("docs"),
                                                   withDestinationURL: Self.repository.appendingPathComponent("docs"))
        func shell(_ command: String) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            let scenarioctl = try ScenarioDaemon.executable(named: "scenarioctl")
            environment["PATH"] = URL(fileURLWithPath: scenarioctl).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
            environment["SCENARIOD_SOCKET"] = daemon.client.socketPath
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }

        let run = try shell(Self.commands[0])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("200 of 200 walks, 4000 steps"), "\(run.output)")
        #expect(run.output.hasSuffix("every property held in every walk.\n"), "\(run.output)")

        let found = try shell(Self.commands[1])
        #expect(found.status == 1, "\(found.output)")
        #expect(found.output.contains("""
            minimal walk: 2 steps (from 20, 34 replays)
              1. slow every answer by 2s
              2. reload
            """), "\(found.output)")
        #expect(found.output.contains("FAILED: a reload finishes within a second ("), "\(found.output)")

        // --json prints the report for scripts: the same figures, decodable as ScenarioExplore's type.
        let json = try shell("scenarioctl explore offline-demo --walks 5 --seed 1 --json")
        #expect(json.status == 0, "\(json.output)")
        let report = try JSONDecoder().decode(ExploreReport.self, from: Data(json.output.utf8))
        #expect(report.walksRun == 5 && report.steps == 100 && report.failure == nil, "\(json.output)")

        let replayed = try shell(Self.commands[2])
        #expect(replayed.status == 1, "\(replayed.output)")
        #expect(replayed.output.contains("1. slow every answer by 2s\n2. reload\nFAILED: a reload finishes within a second ("), "\(replayed.output)")
        #expect(replayed.output.contains("after step 2: not true within 1s of step 2; /isLoading is true"), "\(replayed.output)")
    }
}
