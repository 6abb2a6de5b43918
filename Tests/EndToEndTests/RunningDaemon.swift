import Foundation
import ScenarioClient
import Testing

/// The real `scenariod` binary, started for one test on its own socket, with a test-owned NOTIFY_SOCKET.
final class RunningDaemon: Sendable {
    let process: Process
    let directory: URL
    let socket: String
    let notify: NotifyReceiver
    let logFile: URL

    var client: ControlClient { ControlClient(socketPath: socket) }

    /// Starts the daemon and waits for READY=1.
    /// - Parameters:
    ///   - arguments: Extra flags (`--scenario offline-demo`, …); `--scenarios`, `--socket`, `--log-target` and
    ///     `--state-directory` (inside the test's directory) are set.
    ///   - scenarios: The scenario directory to serve.
    ///   - binary: The daemon executable: scenariod, or another daemon built on its library.
    static func start(_ arguments: [String] = [], scenarios: URL = Binaries.scenarios,
                      binary: String = Binaries.scenariod) async throws -> RunningDaemon {
        let directory = try Binaries.temporaryDirectory()
        let daemon = try RunningDaemon(directory: directory, arguments: arguments, scenarios: scenarios, binary: binary)
        guard await daemon.notify.waitFor("READY=1") != nil else {
            daemon.process.terminate()
            throw DaemonError(message: "scenariod did not send READY=1; its log:\n\(daemon.log)")
        }
        return daemon
    }

    private init(directory: URL, arguments: [String], scenarios: URL, binary: String) throws {
        self.directory = directory
        socket = directory.appendingPathComponent("control.sock").path
        notify = try NotifyReceiver(path: directory.appendingPathComponent("notify.sock").path)
        logFile = directory.appendingPathComponent("daemon.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--scenarios", scenarios.path, "--socket", socket, "--log-target", "stderr",
                             "--state-directory", directory.appendingPathComponent("state").path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "JOURNAL_STREAM"] { environment[name] = nil }
        process.environment = environment
        let log = try FileHandle(forWritingTo: logFile)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// What the daemon wrote to stderr so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until the log contains `text`; false after `limit`, which only guards against a hang.
    func waitForLog(_ text: String, limit: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if log.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// SIGTERM, then the exit status once it has exited.
    @discardableResult
    func stop() async -> Int32 {
        signal(SIGTERM)
        return await exitStatus()
    }

    func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [process] in
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}

struct DaemonError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
