import FeedReader
import Foundation
import Logging
import ScenarioDaemon
import ServiceLifecycle
import Testing

/// The daemon as a swift-service-lifecycle Service in a group a team owns: it serves beside the team's own
/// services and stops when the group shuts down.
@Suite struct DaemonServiceTests {
    /// A team's own service, which waits for shutdown.
    struct Heartbeat: Service {
        func run() async throws { try? await gracefulShutdown() }
    }

    @Test func theDaemonRunsInATeamsServiceGroupAndStopsWithIt() async throws {
        let directory = URL(fileURLWithPath: "/tmp/scd-svc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control.sock").path
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios").path
        let options = try DaemonOptions(arguments: [
            "--scenarios", scenarios, "--scenario", "offline-demo", "--socket", socket,
            "--state-directory", directory.appendingPathComponent("state").path,
        ])
        let logger = Logger(label: "test")
        let daemon = DaemonService(name: "teamd", version: "2.0.0", options: options, models: [FeedReader.self], logger: logger)
        let group = ServiceGroup(services: [Heartbeat(), daemon], logger: logger)

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var waited = 0
            while !FileManager.default.fileExists(atPath: socket), waited < 3_000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            let health = try await Self.curl(socket, "/v1/health")
            #expect(health.contains(#""daemon":"teamd""#) && health.contains(#""version":"2.0.0""#), "\(health)")
            let state = try await Self.curl(socket, "/v1/sessions/default/state")
            #expect(state.contains("Testing actors in Swift"), "\(state)")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed when the daemon stops")
    }

    static func curl(_ socket: String, _ path: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--unix-socket", socket, "http://localhost\(path)"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
