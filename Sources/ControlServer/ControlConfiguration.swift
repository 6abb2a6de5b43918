import Foundation
public import ScenarioFormat

/// What the control API needs besides the host: who it is and how to reload.
public struct ControlConfiguration: Sendable {
    /// The daemon's name and version, reported by health and version.
    public var name: String
    public var version: String
    /// The id of the daemon's default session, when it was started with a scenario.
    public var defaultSession: String?
    /// Re-reads the scenario directories (the daemon's SIGHUP path, so both log and notify alike).
    public var reload: @Sendable () async -> ScenarioCatalog
    /// Who may use the socket beyond its file mode.
    public var access: AccessPolicy
    /// How long a connection may take to deliver a request head, from opening or from its previous response.
    public var requestTimeout: Duration
    /// How long a request's body may take to arrive whole, from its head.
    public var bodyTimeout: Duration
    /// How much exploring (`POST /v1/explorations`) the daemon takes on.
    public var explorations: ExplorationLimits
    /// Where sessions' Unix socket endpoints are made (`endpoints/` in the daemon's runtime directory); nil when the
    /// daemon has none, and then a session's endpoint must be a loopback port.
    public var endpointDirectory: String?

    /// Creates a configuration.
    public init(name: String = "scenariod", version: String, defaultSession: String?, access: AccessPolicy = .open, requestTimeout: Duration = .seconds(30),
                bodyTimeout: Duration = .seconds(30), explorations: ExplorationLimits = ExplorationLimits(),
                endpointDirectory: String? = nil, reload: @escaping @Sendable () async -> ScenarioCatalog) {
        self.endpointDirectory = endpointDirectory
        self.access = access
        self.explorations = explorations
        self.requestTimeout = requestTimeout
        self.bodyTimeout = bodyTimeout
        self.name = name
        self.version = version
        self.defaultSession = defaultSession
        self.reload = reload
    }
}

/// How much exploring one daemon takes on (`POST /v1/explorations`).
public struct ExplorationLimits: Sendable {
    /// Explorations running at once; more are refused (429 `tooManyExplorations`), since each walk takes a core
    /// while it runs.
    public var running: Int
    /// Steps one exploration may ask for (walks × steps); more is refused (422 `explorationTooLong`), so no
    /// request keeps the daemon busy for days.
    public var steps: Int
    /// Explorations over that are kept to be read; the oldest are forgotten past it.
    public var kept: Int

    /// Limits of `running` explorations at once, `steps` steps each, `kept` kept once over.
    public init(running: Int = 4, steps: Int = 10_000_000, kept: Int = 32) {
        self.running = running
        self.steps = steps
        self.kept = kept
    }
}
