/// `GET /v1/health`: the daemon is up and what it holds.
public struct HealthBody: Codable, Sendable, Hashable {
    /// Always `ok` when the daemon answers.
    public var status: String
    /// The daemon's version.
    public var version: String
    /// The daemon's name (`scenariod`, or a team's own daemon such as `todod`).
    public var daemon: String?
    /// Scenarios loaded as their files are now, without problems.
    public var scenarios: Int
    /// Scenarios whose files have problems and that serve the version last read without them.
    public var scenariosServingLastGood: Int
    /// Scenarios whose files have problems and that serve nothing.
    public var invalidScenarios: Int
    /// Open sessions.
    public var sessions: Int
    /// The id of the daemon's default session (`--scenario`), when it has one.
    public var defaultSession: String?

    /// A health body, as the daemon answers it; clients decode it rather than build it.
    public init(status: String = "ok", version: String, daemon: String? = nil, scenarios: Int, scenariosServingLastGood: Int = 0,
                invalidScenarios: Int = 0, sessions: Int, defaultSession: String?) {
        self.status = status
        self.version = version
        self.daemon = daemon
        self.scenarios = scenarios
        self.scenariosServingLastGood = scenariosServingLastGood
        self.invalidScenarios = invalidScenarios
        self.sessions = sessions
        self.defaultSession = defaultSession
    }
}

/// `GET /v1/version`.
public struct VersionBody: Codable, Sendable, Hashable {
    /// The daemon's version, as its executable reports it (`scenariod --version`).
    public var version: String
    /// The daemon's name (`scenariod`, `todod`).
    public var daemon: String?
    /// The control API's version, the first component of every path (`v1`).
    public var api: String

    /// A version body, as the daemon answers it.
    public init(version: String, daemon: String? = nil, api: String = "v1") {
        self.version = version
        self.daemon = daemon
        self.api = api
    }
}
