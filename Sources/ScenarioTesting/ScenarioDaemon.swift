import ControlServer
public import Fakes
import Foundation
public import ScenarioClient
import ScenarioFormat
import ScenarioHost
public import Services

/// The scenariod a test run talks to: the one named by `$SCENARIOD_SOCKET`, or a private one started for the run
/// on a temporary socket and stopped when the process exits.
///
/// Tests share one daemon (that is the point: one daemon, many isolated sessions, in parallel), so ``shared`` is
/// the one process-wide value here; it is immutable once started.
public final class ScenarioDaemon: Sendable {
    /// The daemon every ``withScenario(_:id:daemon:_:)`` uses unless given another; started on first use.
    public static let shared = Task<ScenarioDaemon, any Error> { try await ScenarioDaemon.startOrConnect() }

    /// The client for the daemon's control socket.
    public let client: ScenarioClient
    private let process: Process?
    private let directory: URL?

    private init(client: ScenarioClient, process: Process?, directory: URL?) {
        self.client = client
        self.process = process
        self.directory = directory
    }

    deinit {
        if let process, process.isRunning { process.terminate() }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Connects to `$SCENARIOD_SOCKET` when it is set; otherwise starts a daemon executable (from
    /// `$SCENARIOD_BINARY`, or `executable` beside the test bundle) on the scenarios in `$SCENARIOD_SCENARIOS` or
    /// `./scenarios`.
    /// - Parameter executable: The daemon's executable name: `scenariod`, or a team's own (`todod`), which
    ///   SwiftPM builds beside the tests of the package that has it.
    public static func startOrConnect(executable: String = "scenariod") async throws -> ScenarioDaemon {
        let environment = ProcessInfo.processInfo.environment
        if let socket = environment["SCENARIOD_SOCKET"] {
            return ScenarioDaemon(client: ScenarioClient(socketPath: socket), process: nil, directory: nil)
        }
        let binary = environment["SCENARIOD_BINARY"] ?? URL(fileURLWithPath: CommandLine.arguments[0])
            .resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(executable).path
        let scenarios = environment["SCENARIOD_SCENARIOS"] ?? "scenarios"
        return try await start(binary: binary, scenarios: scenarios)
    }

    /// A daemon in this process: the engine and the control API's routes for `models`, with no executable and no
    /// socket, so a test drives a scenario in microseconds. It behaves as a daemon process does (same routes,
    /// bodies and errors), so a suite can run in either mode.
    ///
    /// ```swift
    /// let inProcess = Task { try ScenarioDaemon.inProcess(models: [TodoList.self]) }
    /// try await withScenario("todo-empty", daemon: try await inProcess.value) { session in … }
    /// ```
    /// - Parameters:
    ///   - models: The Models its scenarios may name.
    ///   - services: The services the team defines for them, as its daemon's `main` registers them.
    ///   - scenarios: The directory of scenario directories; `$SCENARIOD_SCENARIOS` or `./scenarios` by default.
    public static func inProcess(models: [any Model.Type], services: [ServiceDefinition] = [],
                                 scenarios: String? = nil) throws -> ScenarioDaemon {
        let root = URL(fileURLWithPath: scenarios ?? ProcessInfo.processInfo.environment["SCENARIOD_SCENARIOS"] ?? "scenarios")
        let registry = ModelRegistry(models, services: services)
        let catalog = ScenarioCatalog.load(from: [root], models: registry.names, services: registry.services)
        guard !catalog.unreadableRoots.contains(root.standardizedFileURL) else {
            throw ScenarioTestingError("cannot read the scenarios directory \(root.path); run the tests from the package directory or set SCENARIOD_SCENARIOS")
        }
        // Durable stores and recordings go to a directory of this daemon's own, removed with it.
        let directory = URL(fileURLWithPath: "/tmp/scenario-testing-\(UUID().uuidString.prefix(8))")
        let host = ScenarioHost(catalog: catalog, models: registry, stateDirectory: directory)
        let responder = ControlResponder(host: host, configuration: ControlConfiguration(
            name: "in-process", version: "in-process", defaultSession: nil, reload: { await host.reload(from: [root]) }))
        return ScenarioDaemon(client: ScenarioClient(transport: InProcessTransport(responder: responder)), process: nil, directory: directory)
    }

    /// Starts a private daemon and waits until its socket answers.
    public static func start(binary: String, scenarios: String) async throws -> ScenarioDaemon {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ScenarioTestingError("no daemon executable at \(binary); build it (swift build) or set SCENARIOD_BINARY or SCENARIOD_SOCKET")
        }
        let directory = URL(fileURLWithPath: "/tmp/scenario-testing-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("control.sock").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--scenarios", scenarios, "--socket", socket, "--log-target", "stderr", "--log-level", "warning",
                             "--exit-with-parent", "--state-directory", directory.appendingPathComponent("state").path]
        // Its own log file: a daemon holding the test runner's pipes would keep the runner waiting for their end.
        let log = directory.appendingPathComponent("scenariod.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The socket file appears once the daemon accepts; bounded, so a daemon that fails says so.
        for _ in 0..<3_000 where !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning else {
                throw ScenarioTestingError("\(binary) exited with status \(process.terminationStatus) before it was ready; see \(log.path)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            process.terminate()
            throw ScenarioTestingError("\(binary) did not create \(socket) within 30 s")
        }
        return ScenarioDaemon(client: ScenarioClient(socketPath: socket), process: process, directory: directory)
    }
}

/// A failed expectation of ScenarioTesting; throwing it fails the test in Swift Testing and XCTest alike.
public struct ScenarioTestingError: Error, CustomStringConvertible {
    /// What was expected and what happened instead.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
