public import ControlAPI
public import Services

/// Sessions: opening, resetting and ending them, their routes, history and rewind, the Model's actions and state, and saving one as a scenario.
extension ControlClient {
    /// Starts a session of `scenario`, with an id of your choosing or one the daemon makes up.
    /// - Parameters:
    ///   - scenario: The scenario's name.
    ///   - id: The session's id; one the daemon makes up when nil. An id in use is refused.
    ///   - overrides: Scenario sections for this session only (`network.routes`, `keyValue.seed`, `clock`, …), read
    ///     as a scenario file that extends `scenario` would be.
    ///   - endpoint: Give the session its own HTTP listener, through which apps the daemon does not host reach its
    ///     network; the returned body's `endpoint` says where it listens.
    public func createSession(scenario: String, id: String? = nil, overrides: JSONValue? = nil,
                              endpoint: SessionEndpointRequest? = nil) async throws -> SessionBody {
        try await send("POST", "/v1/sessions", body: CreateSessionRequest(scenario: scenario, id: id, overrides: overrides, endpoint: endpoint))
    }
    /// Adds route `name` to a running session, or replaces its route of that name; `route` is written as in a
    /// scenario file's `network.routes` (its `name` may be left out). A reset undoes it.
    public func setRoute(_ name: String, to route: JSONValue, session: String = defaultSession) async throws {
        try await sendExpectingNoContent("PUT", sessionPath(session, "/routes/\(segment(name))"), body: route)
    }
    /// Removes route `name` from a running session; a reset restores it.
    public func removeRoute(_ name: String, session: String = defaultSession) async throws {
        try await sendExpectingNoContent("DELETE", sessionPath(session, "/routes/\(segment(name))"))
    }
    /// Every open session.
    public func sessions() async throws -> [SessionBody] { try await get("/v1/sessions") }
    /// Session `id`: its scenario, Model, time and request counts.
    public func session(_ id: String = defaultSession) async throws -> SessionBody { try await get(sessionPath(id)) }
    /// Ends session `id`: its Model's tasks are cancelled and its state is gone.
    public func deleteSession(_ id: String) async throws { try await sendExpectingNoContent("DELETE", sessionPath(id)) }
    /// Starts session `id` over from its scenario (with the overrides it was created with), as if new.
    public func resetSession(_ id: String = defaultSession) async throws -> SessionBody { try await send("POST", sessionPath(id, "/reset")) }

    /// What clients did to the session since it started, step by step (step 0 is the start).
    public func history(session: String = defaultSession) async throws -> HistoryBody { try await get(sessionPath(session, "/history")) }

    /// Returns the session to the moment after `step` of its history (0: its start) by replaying its steps, and
    /// returns the Model's state; later steps are forgotten.
    @discardableResult
    public func rewind(to step: Int, session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/rewind"), body: RewindRequest(step: step))
    }

    /// Performs `action` with `arguments` (a JSON object) and returns the Model's state once it has settled.
    public func perform(_ action: String, arguments: JSONValue = [:], session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/actions/\(segment(action))"), body: arguments)
    }
    /// The Model's state, as JSON, once it has settled.
    public func state(session: String = defaultSession) async throws -> JSONValue { try await get(sessionPath(session, "/state")) }

    /// Saves what the `record` session recorded as a new scenario `name`, which sessions can use at once.
    public func saveRecording(as name: String, keepSecrets: Bool = false, session: String = defaultSession) async throws -> SavedRecordingBody {
        try await send("POST", sessionPath(session, "/recording"), body: SaveRecordingRequest(name: name, keepSecrets: keepSecrets ? true : nil))
    }

    /// Saves the session as a new scenario `name` that starts where it stands: its key-value state as the seed, its
    /// virtual time as the clock's start, extending its scenario. Sessions of it can be created at once.
    @discardableResult
    public func saveSession(as name: String, description: String? = nil, session: String = defaultSession) async throws -> SavedSessionBody {
        try await send("POST", sessionPath(session, "/save"), body: SaveSessionRequest(name: name, description: description))
    }
}
