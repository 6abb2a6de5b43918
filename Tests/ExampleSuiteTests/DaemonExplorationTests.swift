import ControlAPI
import Foundation
import ScenarioClient
import ScenarioExplore
import ScenarioTesting
import Services
import Testing

/// Explorations the daemon runs on its own engine (`POST /v1/explorations`, what `scenarioctl explore` uses): the
/// same report and walk file as an ``Explorer`` run through the client, cancellable with nothing left behind,
/// refused up front for what cannot run, and bounded in what the daemon keeps.
@Suite struct DaemonExplorationTests {
    /// Every planted bug, and a scenario whose walks all hold: the daemon's report is the client's, to the byte but for
    /// its timings, and the walk file written from it is the one the client's explorer writes.
    @Test(arguments: Mode.allCases)
    func theDaemonsReportAndWalkFileAreTheClients(mode: Mode) async throws {
        let daemon = try await mode.start()
        for scenario in ExploreTests.plantedBugs.map(\.scenario) + ["booking"] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explorations-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            func options(_ file: String) -> ExploreOptions {
                ExploreOptions(walks: 120, steps: 15, seed: 11, parallelism: 2, walkFile: directory.appendingPathComponent(file))
            }
            let client = try await Explorer(client: daemon.client, target: daemon.walkTarget, scenario: scenario, options: options("client.json")).run()
            let inDaemon = try await daemon.client.explore(scenario, options: options("daemon.json"))
            #expect(inDaemon.steps > 0)
            var expected = client.withoutTimings, actual = inDaemon.withoutTimings
            #expect(actual == expected, "\(scenario): the daemon's report\n\(inDaemon.text)\nthe client's\n\(client.text)")
            expected.failure = nil
            actual.failure = nil
            #expect(actual == expected)
            if client.failure != nil {
                #expect(inDaemon.failure?.walkFile == directory.appendingPathComponent("daemon.json").path)
                #expect(try WalkFile.read(from: directory.appendingPathComponent("daemon.json"))
                    == WalkFile.read(from: directory.appendingPathComponent("client.json")))
            }
        }
    }

    /// A cancelled exploration stops, says so to whoever follows it, deletes every session its walks opened, and is
    /// forgotten.
    @Test(arguments: Mode.allCases)
    func aCancelledExplorationLeavesNoSession(mode: Mode) async throws {
        let daemon = try await mode.start()
        let client = daemon.client
        let before = try await client.sessions().map(\.id)
        let started = try await client.startExploration(ExplorationRequest(scenario: "booking", options: ExploreOptions(walks: 100_000, steps: 10, parallelism: 2)))
        #expect(started.status == .running)
        // Walks are done before it is cancelled, so the cancel meets walks that run.
        for try await update in try await client.explorationUpdates(started.id) where update.progress.walksDone >= 20 { break }
        let ended = try await client.cancelExploration(started.id)
        #expect(ended.status == .cancelled)
        #expect(ended.progress.walksDone < 100_000)
        #expect(try await client.sessions().map(\.id) == before)
        await #expect(throws: ScenarioClientError.self) { try await client.exploration(started.id) }
        do {
            _ = try await client.exploration(started.id)
        } catch let error as ScenarioClientError {
            #expect(error.code == .unknownExploration)
        }
    }

    /// ScenarioTesting's explore against a daemon in another process runs the walks in that daemon, as one
    /// exploration rather than a request per step, and reports what an exploration in this process reports.
    @Test func aTestsExploreRunsInADaemonProcess() async throws {
        let inDaemon = try await Mode.daemon.start()
        let here = try await Mode.inProcess.start()
        let there = try await explore("booking", walks: 80, steps: 12, seed: 3, parallelism: 2, daemon: inDaemon)
        let local = try await explore("booking", walks: 80, steps: 12, seed: 3, parallelism: 2, daemon: here)
        #expect(there.withoutTimings == local.withoutTimings)
        // A walk that breaks a property fails the test the same way in both.
        for bug in ExploreTests.plantedBugs.prefix(2) {
            for daemon in [inDaemon, here] {
                let error = try await #require(throws: ScenarioTestingError.self) {
                    try await explore(bug.scenario, walks: 300, steps: 20, seed: 3, parallelism: 2, daemon: daemon)
                }
                #expect(error.description.contains("FAILED: \(bug.property)"), "\(error)")
            }
        }
        #expect(try await inDaemon.client.explorations().count == 3)
    }

    /// docs/explore-a-model.md's curl example, run as written against a daemon of the shipped scenarios: it
    /// starts an exploration and follows it to its report.
    @Test func theDocsCurlExampleRunsAsWritten() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let daemon = try await TestDaemon.start(binary: try TestDaemon.executable(named: "scenariod"),
                                                scenarios: repository.appendingPathComponent("scenarios").path)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", Self.curlExample]
        shell.environment = ProcessInfo.processInfo.environment.merging(["S": daemon.client.socketPath]) { $1 }
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(text)")
        #expect(text.contains(#""id":"x1""#) && text.contains(#""status":"running""#), "\(text)")
        #expect(text.contains("event: exploration") && text.contains(#""status":"finished""#) && text.contains(#""walksRun":200"#), "\(text)")
    }

    static let curlExample = #"""
curl --unix-socket $S --json '{"scenario": "offline-demo", "walks": 200, "seed": 7}' http://localhost/v1/explorations
curl --unix-socket $S -N http://localhost/v1/explorations/x1/events
"""#

    /// What cannot run is refused before anything runs, each refusal saying what and where.
    @Test func whatCannotRunIsRefusedUpFront() async throws {
        let daemon = try await Mode.inProcess.start()
        let client = daemon.client
        func refusal(_ request: ExplorationRequest) async throws -> ScenarioClientError {
            do {
                let exploration = try await client.startExploration(request)
                Issue.record("started \(exploration.id) of \(request.scenario)")
                try await client.cancelExploration(exploration.id)
            } catch let error as ScenarioClientError {
                return error
            }
            throw CancellationError()
        }
        let unknown = try await refusal(ExplorationRequest(scenario: "bookin"))
        #expect(unknown.code == .unknownScenario && unknown.description.contains("Did you mean 'booking'?"), "\(unknown)")
        let properties = try await refusal(ExplorationRequest(scenario: "booking", properties: .init(
            file: "mine.yaml", text: "always:\n  - name: x\n    that: /nowhere ==\n")))
        #expect(properties.code == .invalidRequest && properties.description.contains("mine.yaml:3:"), "\(properties)")
        var none = ExplorationRequest(scenario: "booking")
        none.walks = 0
        #expect(try await refusal(none).code == .invalidRequest)
        var long = ExplorationRequest(scenario: "booking")
        long.walks = 1_000_000
        long.steps = 1_000
        #expect(try await refusal(long).code == .explorationTooLong)
        var overridden = ExplorationRequest(scenario: "booking")
        overridden.overrides = ["clock": ["start": "not a time"]]
        #expect(try await refusal(overridden).code == .invalidOverrides)
    }

    /// As many run at once as the daemon allows; the next is refused until one ends. Those over are kept to be read,
    /// the oldest forgotten past 32, so a daemon that explores for days holds a bounded number.
    @Test func explorationsAreBoundedRunningAndKept() async throws {
        let daemon = try await Mode.inProcess.start()
        let client = daemon.client
        let long = ExplorationRequest(scenario: "booking", options: ExploreOptions(walks: 100_000, steps: 10, parallelism: 1))
        var running: [Exploration] = []
        for _ in 0..<4 { running.append(try await client.startExploration(long)) }
        do {
            let fifth = try await client.startExploration(long)
            Issue.record("a fifth exploration started: \(fifth.id)")
        } catch let error as ScenarioClientError {
            #expect(error.code == .tooManyExplorations, "\(error)")
        }
        for exploration in running { try await client.cancelExploration(exploration.id) }
        for _ in 0..<40 {
            let short = try await client.startExploration(ExplorationRequest(scenario: "booking", options: ExploreOptions(walks: 1, steps: 1)))
            for try await _ in try await client.explorationUpdates(short.id) {}
            #expect(try await client.exploration(short.id).status == .finished)
        }
        let kept = try await client.explorations()
        #expect(kept.count == 32)
        #expect(kept.allSatisfy { $0.status == .finished && $0.report?.steps == 1 })
        #expect(kept.map(\.id) == kept.map(\.id).sorted { Int($0.dropFirst())! < Int($1.dropFirst())! })
    }
}
