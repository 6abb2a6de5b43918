/// `GET /v1/health`: the daemon is up and what it holds.
public struct HealthBody: Codable, Sendable, Hashable {
    /// Always `ok` when the daemon answers.
    public var status: String
    /// The daemon's version.
    public var version: String
    /// The daemon's name (`scenariod`, or a team's own daemon such as `todod`).
    public var daemon: String?
    /// Valid scenarios loaded.
    public var scenarios: Int
    /// Open sessions.
    public var sessions: Int
    /// The id of the daemon's default session (`--scenario`), when it has one.
    public var defaultSession: String?

    public init(status: String = "ok", version: String, daemon: String? = nil, scenarios: Int, sessions: Int, defaultSession: String?) {
        self.status = status
        self.version = version
        self.daemon = daemon
        self.scenarios = scenarios
        self.sessions = sessions
        self.defaultSession = defaultSession
    }
}

/// `GET /v1/version`.
public struct VersionBody: Codable, Sendable, Hashable {
    public var version: String
    /// The daemon's name (`scenariod`, `todod`).
    public var daemon: String?
    public var api: String

    public init(version: String, daemon: String? = nil, api: String = "v1") {
        self.version = version
        self.daemon = daemon
        self.api = api
    }
}
