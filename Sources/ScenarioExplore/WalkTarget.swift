public import ControlAPI
public import Foundation
public import Services

/// Where walks run: a daemon's sessions, reached over its control API (``/ScenarioClient/ControlClient``, what
/// `scenarioctl explore` uses) or, in a test's process, straight on its engine (ScenarioTesting's `explore`), which
/// skips the encoding and decoding of every request.
///
/// Both must answer alike: a refusal is thrown as ``/ScenarioClient/ScenarioClientError/api(status:body:)`` with the
/// status and code the control API gives it, so a walk counts it the same way.
public protocol WalkTarget: Sendable {
    /// Opens a session of `scenario` named `id`, with `overrides` as `POST /v1/sessions` takes them.
    func openSession(scenario: String, id: String, overrides: JSONValue?) async throws -> any WalkSession
    /// Saves the open session `id` as scenario `name` (`POST /v1/sessions/ID/save`) and returns the scenario's name.
    func saveSession(_ id: String, as name: String, description: String) async throws -> String
    /// Deletes the session `id` (one a walk kept open to save).
    func deleteSession(_ id: String) async throws
}

/// One open session of a walk: the operations a walk's steps and checks make, each as the control API's operation
/// of the same name does it.
public protocol WalkSession: Sendable {
    /// The session's id.
    var id: String { get }
    /// The session's clock when it opened.
    var openedAt: Date { get }
    /// The Model's state once settled.
    func state() async throws -> JSONValue
    /// Performs an action and returns the state once settled.
    func perform(_ action: String, arguments: JSONValue) async throws -> JSONValue
    /// Moves the clock and returns the new time.
    func advanceClock(by duration: Duration) async throws -> Date
    /// The earliest instant something sleeps until on the clock, or nil when nothing does.
    func nextWake() async throws -> Date?
    /// Switches the network into `conditions`.
    func setNetworkConditions(_ conditions: NetworkConditionsBody) async throws
    /// Replaces route `name` with `json`, a route as a scenario file writes it.
    func setRoute(_ name: String, to json: JSONValue) async throws
    /// Stores `value` under `key`.
    func setKeyValue(_ key: String, to value: JSONValue) async throws
    /// Removes `key`.
    func removeKeyValue(_ key: String) async throws
    /// The key-value store as one object of keys.
    func store() async throws -> JSONValue
    /// The journal's entries, as `GET …/journal` gives them.
    func journal() async throws -> JSONValue
    /// Ends the oldest open stream that is not live (closed by its server, or broken off with `fault`) and returns
    /// the state once settled; nil when none is open.
    func closeOldestStream(fault: TransportError?) async throws -> JSONValue?
    /// How many requests each route answered, and how many matched none.
    func requestCounts() async throws -> RequestCountsBody
    /// The first request that matched no route, as `METHOD URL`; nil when none did.
    func firstUnmatchedRequest() async throws -> String?
    /// The first escape the session saw, as one sentence; nil when none.
    func firstEscape() async throws -> String?
    /// Deletes the session.
    func delete() async throws
}
