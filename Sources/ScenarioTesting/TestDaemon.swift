import ControlServer
public import Fakes
import Foundation
public import ScenarioClient
public import ScenarioExplore
import ScenarioFormat
package import ScenarioHost
public import Services

/// The scenariod a test run talks to: the one named by `$SCENARIOD_SOCKET`, or a private one started for the run
/// on a temporary socket and stopped when the process exits.
///
/// Tests share one daemon (that is the point: one daemon, many isolated sessions, in parallel), so ``shared`` is
/// the one process-wide value here; it is immutable once started. A suite names its own once, with the
/// `.scenarioDaemon(…)` suite trait (which sets ``current`` for its tests), or a whole run with
/// `$SCENARIOD_DAEMON`.
public final class TestDaemon: Sendable {
    /// The daemon every ``withScenario(_:id:overriding:endpoint:daemon:_:)`` uses unless given another or inside a suite
    /// that names its own: the daemon executable `$SCENARIOD_DAEMON` names, else scenariod; started on first use.
    public static let shared = Task<TestDaemon, any Error> { try await TestDaemon.startOrConnect() }

    /// The daemon of the suite a test runs in, when the suite names one (`@Suite(.scenarioDaemon(…))`); used by
    /// ``withScenario(_:id:overriding:endpoint:daemon:_:)`` before ``shared``.
    @TaskLocal public static var current: TestDaemon?

    /// The client for the daemon's control socket.
    public let client: ControlClient
    /// Where explorations of this daemon run their walks: straight on its engine when it runs in this process
    /// (``inProcess(models:services:scenarios:)``), else through ``client``. ``explore(_:walks:steps:seed:parallelism:properties:propertiesFile:walkFile:daemon:)``
    /// uses it; give it to an `Explorer` of your own as its `target`.
    public let walkTarget: any WalkTarget
    /// The figures of the engine's memos and of the walks' parsed states, for an in-process daemon; empty for
    /// one reached over a socket. The benchmarks read them.
    package var memoFigures: [MemoFigures] {
        guard let engine = walkTarget as? EngineWalkTarget else { return [] }
        return engine.host.memoFigures + [engine.parsed.figures]
    }
    private let process: Process?
    private let directory: URL?

    private init(client: ControlClient, host: SessionHost? = nil, process: Process?, directory: URL?) {
        self.client = client
        self.walkTarget = host.map { EngineWalkTarget(host: $0, client: client) } ?? client
        self.process = process
        self.directory = directory
    }

    deinit {
        if let process, process.isRunning { process.terminate() }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Connects to `$SCENARIOD_SOCKET` when it is set; otherwise starts a daemon executable on the scenarios in
    /// `$SCENARIOD_SCENARIOS` or `./scenarios`: the one `$SCENARIOD_DAEMON` names, else `$SCENARIOD_BINARY` (a
    /// path), else `executable`. A name is found as ``executable(named:environment:)`` says.
    /// - Parameters:
    ///   - executable: The daemon's executable name: `scenariod`, or a team's own (`todod`), which SwiftPM builds
    ///     beside the tests of the package that has it.
    ///   - environment: Where the variables are read; nil for the process's environment.
    public static func startOrConnect(executable: String = "scenariod",
                                      environment: [String: String]? = nil) async throws -> TestDaemon {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let socket = environment["SCENARIOD_SOCKET"] {
            return TestDaemon(client: ControlClient(socketPath: socket), process: nil, directory: nil)
        }
        let binary = if let named = environment["SCENARIOD_DAEMON"], !named.isEmpty {
            try Self.executable(named: named, environment: environment)
        } else if let path = environment["SCENARIOD_BINARY"] {
            path
        } else {
            try Self.executable(named: executable, environment: environment)
        }
        let scenarios = environment["SCENARIOD_SCENARIOS"] ?? "scenarios"
        return try await start(binary: binary, scenarios: scenarios)
    }

    /// The daemon executable `name` names. With a slash, that path. Without, as a shell finds a command but
    /// looking beside the tests first: the executable of that name SwiftPM built beside the running test bundle,
    /// then the first in the directories of `$PATH`.
    /// - Parameters:
    ///   - name: A name (`todod`) or a path (`./.build/debug/todod`).
    ///   - environment: Where `PATH` is read; nil for the process's environment.
    /// - Throws: ``ScenarioTestingError`` saying where it looked.
    public static func executable(named name: String, environment: [String: String]? = nil) throws -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if name.contains("/") { return name }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let path = environment["PATH"] ?? ""
        let directories = [besideTests.path] + path.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        let candidates = directories.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ScenarioTestingError("no daemon executable '\(name)' beside the tests (\(besideTests.path)) or on PATH (\(path)); "
                + "build it (swift build), or set SCENARIOD_DAEMON to its name or path, or SCENARIOD_SOCKET to a running daemon's socket")
        }
        return found
    }

    /// A daemon in this process: the engine and the control API's routes for `models`, with no executable and no
    /// socket, so a test drives a scenario in microseconds. It behaves as a daemon process does (same routes,
    /// bodies and errors), so a suite can run in either mode.
    ///
    /// ```swift
    /// let inProcess = Task { try TestDaemon.inProcess(models: [TodoList.self]) }
    /// try await withScenario("todo-empty", daemon: try await inProcess.value) { session in … }
    /// ```
    /// - Parameters:
    ///   - models: The Models its scenarios may name.
    ///   - services: The services the team defines for them, as its daemon's `main` registers them.
    ///   - scenarios: The directory of scenario directories; `$SCENARIOD_SCENARIOS` or `./scenarios` by default.
    public static func inProcess(models: [any Model.Type], services: [ServiceDefinition] = [],
                                 scenarios: String? = nil) throws -> TestDaemon {
        let root = URL(fileURLWithPath: scenarios ?? ProcessInfo.processInfo.environment["SCENARIOD_SCENARIOS"] ?? "scenarios")
        let registry = ModelRegistry(models, services: services)
        let catalog = ScenarioCatalog.load(from: [root], models: registry.names, services: registry.services)
        guard !catalog.unreadableRoots.contains(root.standardizedFileURL) else {
            throw ScenarioTestingError("cannot read the scenarios directory \(root.path); run the tests from the package directory or set SCENARIOD_SCENARIOS")
        }
        // Durable stores and recordings go to a directory of this daemon's own, removed with it.
        let directory = scratchDirectory()
        // A test must not pass on a run its session did not own: an escape fails the step.
        let host = SessionHost(catalog: catalog, models: registry, stateDirectory: directory, escapePolicy: .fail)
        let responder = ControlResponder(host: host, configuration: ControlConfiguration(
            name: "in-process", version: "in-process", defaultSession: nil,
            endpointDirectory: directory.appendingPathComponent("endpoints").path,
            // With the sessions and recordings saved as scenarios, as the daemon reloads them, so a saved one opens.
            reload: { await host.reload(from: [root] + [host.recordingsDirectory].compactMap { $0 }) }))
        return TestDaemon(client: ControlClient(transport: InProcessTransport(responder: responder)), host: host, process: nil,
                              directory: directory)
    }

    /// Starts a private daemon and waits until its socket answers.
    public static func start(binary: String, scenarios: String) async throws -> TestDaemon {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ScenarioTestingError("no daemon executable at \(binary); build it (swift build), or set SCENARIOD_DAEMON to its name or path, or SCENARIOD_SOCKET to a running daemon's socket")
        }
        let directory = scratchDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("control.sock").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--scenarios", scenarios, "--socket", socket, "--log-target", "stderr", "--log-level", "warning",
                             "--exit-with-parent", "--model-escapes", "fail", "--state-directory", directory.appendingPathComponent("state").path]
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
        return TestDaemon(client: ControlClient(socketPath: socket), process: process, directory: directory)
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
