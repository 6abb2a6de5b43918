import Foundation
public import Services

/// `POST /v1/explorations`: an exploration for the daemon to run on its own engine, as ``Explorer`` runs one
/// through a client. Every field but ``scenario`` may be left out; the defaults are ``ExploreOptions``'.
public struct ExplorationRequest: Sendable, Hashable, Codable {
    /// A properties file sent with the request: its text, and the name its problems are reported under.
    public struct Properties: Sendable, Hashable, Codable {
        /// The file's name or path, as problems and walk files name it.
        public var file: String
        /// The file's YAML.
        public var text: String

        /// A properties file named `file` with the YAML `text`.
        public init(file: String, text: String) {
            self.file = file
            self.text = text
        }
    }

    /// The scenario to explore.
    public var scenario: String
    /// Walks to run.
    public var walks: Int?
    /// Steps per walk.
    public var steps: Int?
    /// The seed every walk derives from.
    public var seed: UInt64?
    /// Walks run at once; by default, as many as the daemon's machine has cores.
    public var parallelism: Int?
    /// A properties file to check instead of the scenario's own `properties.yaml`.
    public var properties: Properties?
    /// Scenario sections every walk's session overrides, as for `POST /v1/sessions`.
    public var overrides: JSONValue?
    /// The most replays the shrink of a failing walk may make.
    public var shrinkBudget: Int?
    /// A scenario name to save the failing session as.
    public var saveScenario: String?

    /// A request to explore `scenario` with `options` (its Swift properties and walk file stay with the caller).
    public init(scenario: String, options: ExploreOptions = ExploreOptions(), properties: Properties? = nil) {
        self.scenario = scenario
        self.walks = options.walks
        self.steps = options.steps
        self.seed = options.seed
        self.parallelism = options.parallelism
        self.properties = properties
        self.overrides = options.overrides
        self.shrinkBudget = options.shrinkBudget
        self.saveScenario = options.saveFailureAs
    }
}

/// An exploration the daemon runs (`GET /v1/explorations/ID`): how far it has come and, once it is over, its report
/// or what stopped it.
public struct Exploration: Sendable, Hashable, Codable {
    /// Where an exploration is.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Its walks, or the shrink of a failing one, are running.
        case running
        /// It ran to its end: ``Exploration/report`` says what it found.
        case finished
        /// It could not run (its scenario or properties file could not be used): ``Exploration/error`` says why.
        case failed
        /// It was cancelled (`DELETE /v1/explorations/ID`) before its end; its sessions were deleted.
        case cancelled
    }

    /// Its id, `x` and a number, given by the daemon.
    public var id: String
    /// The scenario explored.
    public var scenario: String
    /// Where it is.
    public var status: Status
    /// Walks and steps done so far.
    public var progress: ExploreProgress
    /// The report, once ``status`` is `finished`: the same report ``Explorer/run(progress:)`` gives for the same
    /// scenario, seed and options.
    public var report: ExploreReport?
    /// Why it failed, when ``status`` is `failed`.
    public var error: String?

    /// An exploration with these parts.
    public init(id: String, scenario: String, status: Status, progress: ExploreProgress, report: ExploreReport? = nil,
                error: String? = nil) {
        self.id = id
        self.scenario = scenario
        self.status = status
        self.progress = progress
        self.report = report
        self.error = error
    }
}

/// `GET /v1/explorations`: the explorations running and the last ones over, oldest first.
public struct ExplorationList: Sendable, Hashable, Codable {
    /// The explorations.
    public var explorations: [Exploration]

    /// A list of `explorations`.
    public init(explorations: [Exploration]) { self.explorations = explorations }
}
