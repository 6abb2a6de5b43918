import ArgumentParser
import ControlServer
import Foundation
import Logging
import ScenarioFormat
import ScenarioHost
import ServiceLifecycle
import Services
import Systemd
import UnixSignals

/// The daemon: flags, then the composition root that wires the host, the control server and systemd together.
struct Scenariod: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "scenariod",
        abstract: "Runs application Models in named scenarios and serves a control API on a Unix socket.",
        discussion: """
        Scenario directories default to /usr/share/scenariod/scenarios and /etc/scenariod/scenarios (later wins), \
        or ./scenarios when neither exists; scenarios saved from recordings go to <state>/scenarios, read last. \
        The state directory (durable stores, recordings) defaults to $STATE_DIRECTORY under systemd, else \
        $XDG_STATE_HOME/scenariod, else ~/.local/state/scenariod. The socket defaults to $RUNTIME_DIRECTORY/control.sock under systemd, \
        else $XDG_RUNTIME_DIR/scenariod/control.sock, else /tmp/scenariod-<uid>/control.sock. \
        SIGHUP re-reads the scenarios; SIGTERM drains requests and exits 0.
        """,
        version: version)

    @Option(name: .customLong("scenarios"), help: ArgumentHelp("A directory of scenario directories; repeat it, later ones override.", valueName: "dir"))
    var scenarioDirectories: [String] = []

    @Option(name: .customLong("state-directory"), help: ArgumentHelp("Where durable key-value stores and recorded scenarios are kept.", valueName: "dir"))
    var stateDirectory: String?

    @Option(help: ArgumentHelp("The control socket to create.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Open a default session (id 'default') of this scenario at start-up.", valueName: "name"))
    var scenario: String?

    @Option(name: .customLong("log-target"), help: "Where logs go: journal, stderr or auto (the journal when stderr is connected to it).")
    var logTarget: LogTarget = .auto

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(name: .customLong("journal-capacity"), help: "Requests each session's journal keeps before dropping the oldest.")
    var journalCapacity: Int = RequestJournal.defaultCapacity

    @Option(name: .customLong("allow-uid"), help: ArgumentHelp("Allow this user id to use the socket; repeat it. With any --allow-uid or --allow-group, everyone else gets 403.", valueName: "uid"))
    var allowedUIDs: [UInt32] = []

    @Option(name: .customLong("allow-group"), help: ArgumentHelp("Allow members of this group (name or id) to use the socket; repeat it.", valueName: "group"))
    var allowedGroups: [String] = []

    @Option(name: .customLong("request-timeout"), help: ArgumentHelp("Close a connection that sends no complete request head for this long (idle or dripping).", valueName: "duration"))
    var requestTimeout: String = "30s"

    @Flag(name: .customLong("exit-with-parent"), help: "Stop when the process that started the daemon exits (for test runs).")
    var exitWithParent = false

    mutating func run() async throws {
        try await run(inheritedSockets: [])
    }

    func run(inheritedSockets: [Int32]) async throws {
        let target = logTarget
        let level = logLevel
        LoggingSystem.bootstrap { _ in target.makeHandler(identifier: "scenariod", level: level) }
        let logger = Logger(label: "scenariod")
        let notifier = ServiceNotifier()
        // Flags are checked before anything is opened (a default session may open a database or a network client).
        let access = try resolvedAccessPolicy()
        guard let requestTimeout = DurationText.parse(self.requestTimeout), requestTimeout > .zero else {
            throw ValidationError("--request-timeout \(self.requestTimeout) is not a duration; write one such as 500ms, 10s or 1m.")
        }

        let state = resolvedStateDirectory()
        let directories = resolvedScenarioDirectories() + recordingsDirectory(in: state, logger: logger)
        let models = ModelRegistry.builtIn
        let catalog = ScenarioCatalog.load(from: directories, models: models.names)
        ScenarioReloader.logProblems(of: catalog, logger: logger)
        let host = ScenarioHost(catalog: catalog, models: models, journalCapacity: journalCapacity,
                                stateDirectory: state, logger: logger)

        if let scenario {
            do {
                try await host.createSession(of: scenario, id: "default")
            } catch {
                throw ValidationError("cannot open the default session: \(error.message)")
            }
        }

        OpenFileLimit.raiseToHardLimit(logger: logger)
        let listener = try resolvedListener(inheritedSockets: inheritedSockets)
        let status = StatusLine(host: host, scenario: scenario, socket: listener.description)
        let reloader = ScenarioReloader(host: host, directories: directories, notifier: notifier, status: status, logger: logger)
        let server = ControlServer(
            listener: listener, host: host,
            configuration: ControlConfiguration(version: Self.version, defaultSession: scenario == nil ? nil : "default",
                                                access: access, requestTimeout: requestTimeout,
                                                reload: { await reloader.reload() }),
            logger: logger,
            onListening: {
                let text = await status.text()
                logger.notice("ready: \(text)")
                notifier.ready(status: text)
                if ProcessInfo.processInfo.environment["INVOCATION_ID"] == nil {
                    // Started by hand, not by systemd: say how to talk to it.
                    logger.notice("try: scenarioctl state --socket \(listener.description)   (in the repository: swift run scenarioctl state --socket \(listener.description))")
                }
            })

        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: WatchdogService(notifier: notifier)),
            .init(service: await ReloadService(reloader: reloader)),
            .init(service: StatusService(status: status, notifier: notifier)),
            .init(service: server),
        ]
        if exitWithParent {
            services.append(.init(service: ParentWatch(), successTerminationBehavior: .gracefullyShutdownGroup))
        }
        // Last, so that on shutdown it is told first and STOPPING=1 goes out before anything stops.
        services.append(.init(service: StoppingNotice(notifier: notifier, logger: logger)))
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
        await host.closeAll()
        logger.notice("stopped")
    }

    private func resolvedScenarioDirectories() -> [URL] {
        if !scenarioDirectories.isEmpty { return scenarioDirectories.map { URL(fileURLWithPath: $0) } }
        let system = ["/usr/share/scenariod/scenarios", "/etc/scenariod/scenarios"].filter { FileManager.default.fileExists(atPath: $0) }
        return (system.isEmpty ? ["scenarios"] : system).map { URL(fileURLWithPath: $0) }
    }

    private func resolvedAccessPolicy() throws -> AccessPolicy {
        let gids = try allowedGroups.map { group -> UInt32 in
            if let gid = UInt32(group) { return gid }
            guard let entry = getgrnam(group) else {
                throw ValidationError("--allow-group \(group): there is no such group; give a group name from /etc/group or a numeric id.")
            }
            return entry.pointee.gr_gid
        }
        return AccessPolicy(uids: Set(allowedUIDs), gids: Set(gids))
    }

    private func resolvedStateDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let stateDirectory { return URL(fileURLWithPath: stateDirectory) }
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return URL(fileURLWithPath: String(state)) }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return URL(fileURLWithPath: state).appendingPathComponent("scenariod") }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/scenariod")
    }

    /// The recordings directory, created if need be, as the last scenarios directory; none when it cannot be made
    /// (the daemon still runs; saving a recording then fails with the reason).
    private func recordingsDirectory(in state: URL, logger: Logger) -> [URL] {
        let directory = ScenarioHost.recordings(in: state)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return [directory]
        } catch {
            logger.warning("cannot create \(directory.path) for recorded scenarios: \(error.localizedDescription); recordings cannot be saved")
            return []
        }
    }

    private func resolvedListener(inheritedSockets: [Int32]) throws -> ControlServer.Listener {
        if let descriptor = inheritedSockets.first {
            return .inherited(descriptor: descriptor, path: socket ?? ListenSockets.path(of: descriptor))
        }
        let path: String
        let environment = ProcessInfo.processInfo.environment
        if let socket {
            path = socket
        } else if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first {
            path = "\(runtime)/control.sock"
        } else if let runtime = environment["XDG_RUNTIME_DIR"] {
            path = "\(runtime)/scenariod/control.sock"
        } else {
            path = "/tmp/scenariod-\(getuid())/control.sock"
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw ValidationError("cannot create the socket's directory \(directory): \(error.localizedDescription)")
            }
        }
        return .path(path)
    }
}

extension LogTarget: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
