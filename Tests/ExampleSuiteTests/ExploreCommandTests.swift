import ControlAPI
import Foundation
import ScenarioClient
import ScenarioExplore
import ScenarioTesting
import Testing

/// `scenarioctl explore` and `play` as people run them: in a shell, against scenariod on the shipped scenarios.
@Suite struct ExploreCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// docs/explore-a-model.md's commands, one a line, in its order.
    static let commands = """
        scenarioctl explore offline-demo --walks 200 --seed 1
        scenarioctl explore offline-demo --properties docs/examples/reload-within-a-second.yaml --walk-file reload.walk.json
        scenarioctl play reload.walk.json
        """.split(separator: "\n").map(String.init)

    /// A daemon on the shipped scenarios and a working directory whose `docs` is the repository's (the page's paths).
    struct Workbench {
        let daemon: TestDaemon
        let directory: URL

        init() async throws {
            daemon = try await TestDaemon.start(binary: try TestDaemon.executable(named: "scenariod"),
                                                    scenarios: ExploreCommandTests.repository.appendingPathComponent("scenarios").path)
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-docs-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("docs"),
                                                       withDestinationURL: ExploreCommandTests.repository.appendingPathComponent("docs"))
        }

        /// `command` in /bin/sh, with the built scenarioctl first on PATH and the daemon's socket in the environment.
        func process(_ command: String) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec " + command]
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            let scenarioctl = try TestDaemon.executable(named: "scenarioctl")
            environment["PATH"] = URL(fileURLWithPath: scenarioctl).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
            environment["SCENARIOD_SOCKET"] = daemon.client.socketPath
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            return (process, pipe)
        }

        /// Runs `command` to its end: its exit status and what it printed.
        func shell(_ command: String) throws -> (status: Int32, output: String) {
            let (process, pipe) = try process(command)
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func theWorkedExampleFindsShrinksAndReplaysTheSlowReload() async throws {
        let bench = try await Workbench()
        defer { bench.remove() }
        let shell = bench.shell
        let run = try shell(Self.commands[0])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("200 of 200 walks, 4000 steps"), "\(run.output)")
        #expect(run.output.hasSuffix("every property held in every walk.\n"), "\(run.output)")

        let found = try shell(Self.commands[1])
        #expect(found.status == 1, "\(found.output)")
        #expect(found.output.contains("minimal walk: 2 steps (from 20, shrunk in 34 replays, "), "\(found.output)")
        #expect(found.output.contains("""
              in a session of offline-demo with schedule seed 30421811
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

    @Test func ctrlCStopsTheWalksAndDeletesTheirSessions() async throws {
        let bench = try await Workbench()
        defer { bench.remove() }
        let (process, pipe) = try bench.process("scenarioctl explore offline-demo --walks 100000 --parallel 2")
        // Interrupted once its walks are under way: bounded, so a run that never opens a session fails here.
        var running: [String] = []
        for _ in 0..<500 where running.isEmpty {
            running = try await bench.daemon.client.sessions().map(\.id).filter { $0.hasPrefix("explore-") }
            if running.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(!running.isEmpty, "no walk's session appeared")
        kill(process.processIdentifier, SIGINT)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(output)")
        #expect(output.contains("interrupted; the exploration was cancelled and its sessions deleted."), "\(output)")
        let left = try await bench.daemon.client.sessions().map(\.id).filter { $0.hasPrefix("explore-") }
        #expect(left.isEmpty, "sessions left open: \(left)")
    }
}
