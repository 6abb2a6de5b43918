import Logging
import ScenarioFormat
import ScenarioHost
import ServiceLifecycle
import Systemd

/// The one-line status `systemctl status` shows: scenario, sessions, socket.
struct StatusLine: Sendable {
    let host: SessionHost
    let scenario: String?
    let socket: String

    func text() async -> String {
        let sessions = await host.openSessions().count
        let scenarios = await host.catalog.scenarios.count  // what sessions can start from, last good versions included
        let lead = scenario.map { "Scenario \($0)" } ?? "No default scenario"
        return "\(lead); \(sessions) session\(sessions == 1 ? "" : "s"); \(scenarios) scenarios; socket \(socket)"
    }
}

/// Keeps STATUS= current as sessions come and go (checked every 2 s, sent only when it changed).
struct StatusService: Service, CustomStringConvertible {
    var description: String { "StatusService" }

    let status: StatusLine
    let notifier: ServiceNotifier

    func run() async throws {
        var last = ""
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(2)) }
            let text = await status.text()
            if text != last, !Task.isShuttingDownGracefully {
                notifier.status(text)
                last = text
            }
        }
    }
}

/// Sends STOPPING=1 as soon as shutdown begins.
struct StoppingNotice: Service, CustomStringConvertible {
    var description: String { "StoppingNotice" }

    let notifier: ServiceNotifier
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        notifier.stopping()
        logger.notice("stopping: finishing requests in flight")
    }
}
