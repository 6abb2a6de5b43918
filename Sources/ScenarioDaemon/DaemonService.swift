import ArgumentParser
import ControlServer
public import Fakes
import Foundation
// swift-log and swift-service-lifecycle in the daemon's API: a team that owns main runs DaemonService in its own
// ServiceGroup, beside its other services, with its own Logger.
public import Logging
import ScenarioFormat
import ScenarioHost
public import ServiceLifecycle
public import Services
import Systemd
import UnixSignals

/// A whole daemon as one swift-service-lifecycle `Service`: the scenarios, the sessions, the control API on its
/// Unix socket, `sd_notify` (READY, STATUS, RELOADING, STOPPING, WATCHDOG), reload on SIGHUP and a drain on
/// graceful shutdown. Run it in your own `ServiceGroup` beside your other services, or let
/// ``Daemon/main(name:version:models:services:)`` own the command line, logging and signals for you.
///
/// ```swift
/// let daemon = DaemonService(name: "todod", version: "1.0.0", options: try DaemonOptions(arguments: ["--scenario", "demo"]),
///                            models: [TodoList.self], logger: logger)
/// try await ServiceGroup(services: [daemon, myOtherService], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
public struct DaemonService: Service, CustomStringConvertible {
    /// The daemon's name: the default directories (`/usr/share/NAME/scenarios`, `/tmp/NAME-UID/control.sock`) and
    /// the journal's `SYSLOG_IDENTIFIER` use it.
    public let name: String
    /// The version `GET /v1/version` answers.
    public let version: String
    /// What the command line said (or you set).
    public let options: DaemonOptions
    let models: ModelRegistry
    let inheritedSockets: [Int32]
    let shutdownSignals: [UnixSignal]
    let logger: Logger

    public var description: String { "DaemonService(\(name))" }

    /// Creates the daemon; nothing starts until ``run()``.
    /// - Parameters:
    ///   - name: The daemon's name, for its default paths and the journal (`todod`).
    ///   - version: What `GET /v1/version` answers.
    ///   - options: Its settings, as ``DaemonOptions/init(arguments:)`` reads them from a command line or as you set them.
    ///   - models: The Models scenarios may name (`model: TodoList`); each under its `name`.
    ///   - services: The services the team defines for its Models (see `ServiceDefinition` in the Fakes product).
    ///   - inheritedSockets: Sockets systemd passed (socket activation); take them with
    ///     ``takeInheritedSockets()`` first thing in `main`. None: the daemon creates its socket.
    ///   - logger: Where the daemon logs; its handler decides journal or stderr.
    public init(name: String, version: String, options: DaemonOptions, models: [any Model.Type],
                services: [ServiceDefinition] = [], inheritedSockets: [Int32] = [], logger: Logger) {
        self.init(name: name, version: version, options: options, models: ModelRegistry(models, services: services),
                  inheritedSockets: inheritedSockets, shutdownSignals: [], logger: logger)
    }

    init(name: String, version: String, options: DaemonOptions, models: ModelRegistry,
         inheritedSockets: [Int32], shutdownSignals: [UnixSignal], logger: Logger) {
        self.name = name
        self.version = version
        self.options = options
        self.models = models
        self.inheritedSockets = inheritedSockets
        self.shutdownSignals = shutdownSignals
        self.logger = logger
    }

    /// The sockets systemd passed to this process (socket activation), taken from the environment so no child
    /// inherits them. Call it before anything starts a thread: `unsetenv` is not thread-safe.
    public static func takeInheritedSockets() -> [Int32] { ListenSockets.take() }

    /// Loads the scenarios, opens the default session, listens, tells systemd it is ready, and serves until
    /// graceful shutdown; then closes every session. Throws for options that cannot work, before anything opens.
    public func run() async throws {
        let notifier = ServiceNotifier()
        // Flags are checked before anything is opened (a default session may open a database or a network client).
        let access = try options.resolvedAccessPolicy()
        let requestTimeout = try options.resolvedRequestTimeout()
        let bodyTimeout = try options.resolvedBodyTimeout()
        let limits = try options.resolvedLimits()

        // The event loops' threads start, and the task-ownership check runs, while the scenarios load.
        ControlSocketServer.startEventLoops()
        async let checked = SessionHost.checkTaskOwnership()
        let state = options.resolvedStateDirectory(name: name)
        let directories = options.resolvedScenarioDirectories(name: name) + options.recordingsDirectory(in: state, logger: logger)
        let catalog = ScenarioCatalog.load(from: directories, models: models.names, services: models.services)
        let ownership = await checked
        if !ownership.isComplete {
            // A test must not pass on a run its session did not own: under `fail`, no start at all.
            guard options.modelEscapes != .fail else {
                throw StartRefused(description: "cannot own the Models' tasks (--model-escapes fail): task ownership is \(ownership.summary)")
            }
            logger.warning("sessions cannot own all of their Models' work, so a session may answer before its Model is done or miss an escape: task ownership is \(ownership.summary)")
        } else {
            logger.debug("task ownership is \(ownership.summary)")
        }
        ScenarioReloader.logProblems(of: catalog, logger: logger)
        let host = SessionHost(catalog: catalog, models: models, journalCapacity: options.journalCapacity,
                                stateDirectory: state, limits: limits, escapePolicy: options.modelEscapes, logger: logger)

        if let scenario = options.scenario {
            do {
                try await host.createSession(of: scenario, id: "default")
            } catch {
                throw ValidationError("cannot open the default session: \(error.message)")
            }
        }

        OpenFileLimit.raiseToHardLimit(logger: logger)
        let listener = try options.resolvedListener(name: name, inheritedSockets: inheritedSockets)
        let status = StatusLine(host: host, scenario: options.scenario, socket: listener.description)
        let reloader = ScenarioReloader(host: host, directories: directories, notifier: notifier, status: status, logger: logger)
        let logger = logger
        let server = ControlSocketServer(
            listener: listener, host: host,
            configuration: ControlConfiguration(name: name, version: version, defaultSession: options.scenario == nil ? nil : "default",
                                                access: access, requestTimeout: requestTimeout, bodyTimeout: bodyTimeout,
                                                explorations: ExplorationLimits(running: options.maxExplorations, steps: options.maxExplorationSteps),
                                                endpointDirectory: listener.endpointDirectory(), reload: { await reloader.reload() }),
            logger: logger,
            onListening: {
                let text = await status.text()
                logger.notice("ready: \(text)")
                notifier.ready(status: text)
                if ProcessInfo.processInfo.environment["INVOCATION_ID"] == nil {
                    // Started by hand, not by systemd: say how to talk to it. Without a default session, `state` would
                    // only say there is none, so the hint starts one.
                    let verb = options.scenario == nil ? "session new SCENARIO" : "state"
                    logger.notice("try: scenarioctl \(verb) --socket \(listener.description)   (in the repository: swift run scenarioctl \(verb) --socket \(listener.description))")
                }
            })

        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: WatchdogService(notifier: notifier)),
            .init(service: await ReloadService(reloader: reloader)),
            .init(service: StatusService(status: status, notifier: notifier)),
            .init(service: server),
        ]
        if options.exitWithParent {
            services.append(.init(service: ParentWatch(), successTerminationBehavior: .gracefullyShutdownGroup))
        }
        // Last, so that on shutdown it is told first and STOPPING=1 goes out before anything stops.
        services.append(.init(service: StoppingNotice(notifier: notifier, logger: logger)))
        // A group of its own: run inside a team's group, it shuts down when that group does.
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: shutdownSignals, logger: logger))
        try await group.run()
        await host.closeAll()
        logger.notice("stopped")
    }
}

/// A start the daemon refuses for a reason that is no usage error: printed as one line, exit status 1.
struct StartRefused: Error, CustomStringConvertible {
    let description: String
}
