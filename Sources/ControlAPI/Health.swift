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
    /// What the daemon's sessions can own of their Models' work, as its check at start found.
    public var taskOwnership: TaskOwnershipBody?

    /// A health body, as the daemon answers it; clients decode it rather than build it.
    public init(status: String = "ok", version: String, daemon: String? = nil, scenarios: Int, scenariosServingLastGood: Int = 0,
                invalidScenarios: Int = 0, sessions: Int, defaultSession: String?, taskOwnership: TaskOwnershipBody? = nil) {
        self.status = status
        self.version = version
        self.daemon = daemon
        self.scenarios = scenarios
        self.scenariosServingLastGood = scenariosServingLastGood
        self.invalidScenarios = invalidScenarios
        self.sessions = sessions
        self.defaultSession = defaultSession
        self.taskOwnership = taskOwnership
    }
}

/// What a daemon's sessions can own of their Models' work (docs/who-owns-scheduling.md): each part the daemon tried
/// at start, in words, by whether it works.
public struct TaskOwnershipBody: Codable, Sendable, Hashable {
    /// Whether every part works.
    public var complete: Bool
    /// The parts that work: `a Task {} runs on its session's executor`, `a Date() read is reported`, …
    public var works: [String]
    /// The parts that do not, which a binary linked without scenariod's hooks loses.
    public var missing: [String]
    /// One line: `complete: …`, or what is missing and how to link so that it works.
    public var summary: String

    /// A body as the daemon answers it.
    public init(complete: Bool, works: [String], missing: [String], summary: String) {
        self.complete = complete
        self.works = works
        self.missing = missing
        self.summary = summary
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
