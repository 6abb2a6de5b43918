public import ControlAPI
public import Services

/// The daemon, its Models and its scenarios.
extension ControlClient {
    /// Whether the daemon is up, and what it holds: its scenarios (valid, serving their last good version, invalid),
    /// its open sessions and its default session.
    public func health() async throws -> HealthBody { try await get("/v1/health") }
    /// The daemon's name and version, and the control API's.
    public func version() async throws -> VersionBody { try await get("/v1/version") }
    /// Every scenario the daemon found, valid or not, with its problems.
    public func scenarios() async throws -> [ScenarioSummary] { try await get("/v1/scenarios") }
    /// Scenario `name` as the daemon resolved it (`extends` merged).
    public func scenario(_ name: String) async throws -> ScenarioDetail { try await get("/v1/scenarios/\(segment(name))") }
    /// The scenario's file as it is on disk now, valid or not.
    public func scenarioFile(_ name: String) async throws -> ScenarioFileBody { try await get("/v1/scenarios/\(segment(name))/file") }
    /// Makes the daemon read its scenario directories again (as SIGHUP does) and returns what it found; a scenario
    /// whose files now have problems keeps serving its last good version.
    public func reloadScenarios() async throws -> ReloadBody { try await send("POST", "/v1/scenarios/reload") }

    /// The Models the daemon hosts, each with its actions, their arguments and the keys it documents.
    public func models() async throws -> [ModelDescription] { try await get("/v1/models") }
}
