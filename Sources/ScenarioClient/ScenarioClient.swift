public import AsyncHTTPClient
public import ControlAPI
public import Foundation
import NIOCore
import NIOFoundationCompat
public import Services

/// A typed client of scenariod's control API over its Unix socket. Every method maps to one operation of
/// `openapi/scenariod.yaml`; `session` defaults to the daemon's default session.
public struct ScenarioClient: Sendable {
    /// The id of a daemon's default session.
    public static let defaultSession = "default"

    /// Where this client's requests go: the daemon's socket, or `in-process`.
    public var socketPath: String { transport.endpoint }
    private let transport: any ControlTransport

    /// Creates a client of the daemon listening on `socketPath`.
    ///
    /// A missing socket, or one with no daemon behind it, fails the first request at once with
    /// ``ScenarioClientError/daemonUnreachable(socket:reason:)``; a daemon that accepts but does not answer fails it
    /// after `timeout` with ``ScenarioClientError/noAnswer(socket:reason:mayHaveBeenApplied:)``. Event streams have no time limit.
    /// - Parameters:
    ///   - socketPath: The daemon's control socket.
    ///   - timeout: How long a request may wait for its answer; ``defaultTimeout`` unless given.
    ///   - httpClient: The HTTP client to use; by default one that does not retry a refused connection.
    public init(socketPath: String, timeout: Duration? = nil, httpClient: HTTPClient? = nil) {
        self.transport = UnixSocketTransport(socketPath: socketPath, http: httpClient ?? UnixSocketTransport.failFast,
                                             timeout: timeout ?? Self.defaultTimeout)
    }

    /// How long a request waits for its answer unless a client says otherwise: `$SCENARIOD_TIMEOUT` (a duration
    /// such as `2s` or `500ms`), else 10 seconds. Long enough for an action that waits on a slow live server, short
    /// enough that a stopped daemon is reported while someone still waits for it.
    public static var defaultTimeout: Duration {
        ProcessInfo.processInfo.environment["SCENARIOD_TIMEOUT"].flatMap(DurationText.parse) ?? .seconds(10)
    }

    /// Creates a client that reaches the control API through `transport` (ScenarioTesting's in-process mode).
    public init(transport: any ControlTransport) {
        self.transport = transport
    }

    // MARK: Daemon and scenarios

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

    // MARK: Sessions

    /// Starts a session of `scenario`, with an id of your choosing or one the daemon makes up.
    /// - Parameters:
    ///   - scenario: The scenario's name.
    ///   - id: The session's id; one the daemon makes up when nil. An id in use is refused.
    ///   - overrides: Scenario sections for this session only (`network.routes`, `keyValue.seed`, `clock`, …), read
    ///     as a scenario file that extends `scenario` would be.
    public func createSession(scenario: String, id: String? = nil, overrides: JSONValue? = nil) async throws -> SessionBody {
        try await send("POST", "/v1/sessions", body: CreateSessionRequest(scenario: scenario, id: id, overrides: overrides))
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

    // MARK: Model

    /// Performs `action` with `arguments` (a JSON object) and returns the Model's state once it has settled.
    public func perform(_ action: String, arguments: JSONValue = [:], session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/actions/\(segment(action))"), body: arguments)
    }
    /// The Model's state, as JSON, once it has settled.
    public func state(session: String = defaultSession) async throws -> JSONValue { try await get(sessionPath(session, "/state")) }

    // MARK: Clock

    /// The time on the session's clock.
    public func clock(session: String = defaultSession) async throws -> Date {
        try await clockBody(session: session).now
    }
    /// The earliest instant something sleeps until on the session's clock (a Model's timer, a delayed answer), or
    /// nil when nothing does: moving the clock there, and on from there, shows every state the Model passes through.
    public func nextWake(session: String = defaultSession) async throws -> Date? {
        try await clockBody(session: session).nextWake
    }
    /// Advances by a duration such as `15m` or `2s` and returns the new time; `play` keeps a run of such moves as one
    /// step of the history (as the dashboard's *Play* does).
    public func advanceClock(by duration: String, play: Bool = false, session: String = defaultSession) async throws -> Date {
        try await advanceClockBody(by: duration, play: play, session: session).now
    }
    /// Sets the session's clock to `instant` and returns the new time. Moving forward wakes what falls due, as
    /// ``advanceClock(by:play:session:)`` does; moving back wakes nothing.
    public func setClock(to instant: Date, session: String = defaultSession) async throws -> Date {
        try await setClockBody(to: instant, session: session).now
    }

    // The clock as each call answers it, the time and the next wake together: `scenarioctl clock --json` prints
    // both from the one answer, rather than ask for the next wake again.
    package func clockBody(session: String = defaultSession) async throws -> ClockBody {
        try await get(sessionPath(session, "/clock"))
    }
    package func advanceClockBody(by duration: String, play: Bool = false, session: String = defaultSession) async throws -> ClockBody {
        try await send("POST", sessionPath(session, "/clock/advance"), body: AdvanceClockRequest(by: duration, play: play ? true : nil))
    }
    package func setClockBody(to instant: Date, session: String = defaultSession) async throws -> ClockBody {
        try await send("PUT", sessionPath(session, "/clock"), body: SetClockRequest(now: instant))
    }

    // MARK: Key-value state

    /// The keys of the session's key-value state, sorted.
    public func keyValueKeys(session: String = defaultSession) async throws -> [String] {
        try await (get(sessionPath(session, "/kv")) as KeyValueListBody).keys
    }
    /// The value stored under `key`; a key that is not there is refused with `unknownKey` (404).
    public func keyValue(_ key: String, session: String = defaultSession) async throws -> JSONValue {
        try await get(sessionPath(session, "/kv/\(segment(key))"))
    }
    /// Stores `value` under `key`; returns the value as stored.
    @discardableResult
    public func setKeyValue(_ key: String, to value: JSONValue, session: String = defaultSession) async throws -> JSONValue {
        try await send("PUT", sessionPath(session, "/kv/\(segment(key))"), body: value)
    }
    /// Removes `key` from the session's key-value state.
    public func removeKeyValue(_ key: String, session: String = defaultSession) async throws {
        try await sendExpectingNoContent("DELETE", sessionPath(session, "/kv/\(segment(key))"))
    }

    // MARK: Models

    /// The Models the daemon hosts, each with its actions, their arguments and the keys it documents.
    public func models() async throws -> [ModelDescription] { try await get("/v1/models") }

    // MARK: A team's services

    /// The services the daemon's team defines, each with `fake` or `live` as the session runs it.
    public func services(session: String = defaultSession) async throws -> [ServiceListBody.Service] {
        try await (get(sessionPath(session, "/services")) as ServiceListBody).services
    }
    /// The state of the fake of service `name`: what ``setServiceState(_:to:session:)`` takes, so it can be sent back
    /// changed.
    public func serviceState(_ name: String, session: String = defaultSession) async throws -> JSONValue {
        try await get(sessionPath(session, "/services/\(segment(name))"))
    }
    /// Replaces the whole state of the fake of service `name`; returns it as stored.
    @discardableResult
    public func setServiceState(_ name: String, to state: JSONValue, session: String = defaultSession) async throws -> JSONValue {
        try await send("PUT", sessionPath(session, "/services/\(segment(name))"), body: state)
    }
    /// Changes part of the state of the fake of service `name` with a JSON merge patch (RFC 7396) and returns the
    /// whole state as stored: an object's members replace the state's, objects merging key by key, and a `null`
    /// member removes its key (`["display": ["theme": "dark"], "nickname": nil]`); any other value replaces the
    /// whole state. The result is checked as a state given to ``setServiceState(_:to:session:)`` is, and a refusal
    /// changes nothing.
    /// - Parameters:
    ///   - name: The service's name, its scenario section.
    ///   - patch: The merge patch: usually an object of the members to change.
    ///   - session: The session; the daemon's default session unless given.
    @discardableResult
    public func patchServiceState(_ name: String, with patch: JSONValue, session: String = defaultSession) async throws -> JSONValue {
        try await send("PATCH", sessionPath(session, "/services/\(segment(name))"), body: patch, contentType: "application/merge-patch+json")
    }

    // MARK: Journal

    /// The session's journal: every request its Model made (and what the fakes of a team's services journaled),
    /// oldest first, up to the journal's capacity.
    public func journal(session: String = defaultSession) async throws -> JournalBody { try await get(sessionPath(session, "/journal")) }
    /// What the session's network is switched into.
    public func networkConditions(session: String = defaultSession) async throws -> NetworkConditionsBody {
        try await get(sessionPath(session, "/network/conditions"))
    }
    /// Switches the session's network: offline, into a fault, or adding a delay to every answer; `.init()` switches
    /// it back. A reset does too.
    @discardableResult
    public func setNetworkConditions(_ conditions: NetworkConditionsBody, session: String = defaultSession) async throws -> NetworkConditionsBody {
        try await send("PUT", sessionPath(session, "/network/conditions"), body: conditions)
    }

    /// How many requests each route answered (and how many matched none) since the session started, was reset or
    /// its journal was cleared.
    public func requestCounts(session: String = defaultSession) async throws -> RequestCountsBody {
        try await get(sessionPath(session, "/journal/counts"))
    }
    /// The requests that matched no route, each with its near misses: the closest routes and where each differed.
    public func unmatchedRequests(session: String = defaultSession) async throws -> JournalBody {
        try await get(sessionPath(session, "/journal/unmatched"))
    }
    /// Empties the session's journal and its request counts; the Model and its state are untouched.
    public func clearJournal(session: String = defaultSession) async throws {
        try await sendExpectingNoContent("POST", sessionPath(session, "/journal/clear"))
    }

    // MARK: Streams

    /// The streamed answers the Model is reading now, oldest first, each with how far it has got.
    public func streams(session: String = defaultSession) async throws -> [StreamBody] {
        try await (get(sessionPath(session, "/streams")) as StreamListBody).streams
    }
    /// Pushes an event (or, with `text`, raw bytes) into open stream `stream`, as if its server sent it now; returns
    /// the Model's state once it has read it.
    @discardableResult
    public func pushToStream(_ stream: Int, _ push: PushToStreamRequest, session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/streams/\(stream)/push"), body: push)
    }
    /// Ends open stream `stream`: closed by its server, or (with `fault`) broken off; returns the Model's state once it
    /// has seen the end.
    @discardableResult
    public func closeStream(_ stream: Int, fault: TransportError? = nil, session: String = defaultSession) async throws -> JSONValue {
        try await closeStream(stream, CloseStreamRequest(fault: fault?.rawValue), session: session)
    }
    /// Ends open stream `stream` as `request` says (a fault, or a WebSocket's close frame); returns the Model's state.
    @discardableResult
    public func closeStream(_ stream: Int, _ request: CloseStreamRequest, session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/streams/\(stream)/close"), body: request)
    }
    /// Closes open WebSocket `stream` from the server's side with a close frame; returns the Model's state once it
    /// has seen the close.
    @discardableResult
    public func closeWebSocket(_ stream: Int, code: Int = 1000, reason: String = "", session: String = defaultSession) async throws -> JSONValue {
        try await closeStream(stream, CloseStreamRequest(code: code, reason: reason), session: session)
    }

    // MARK: Recording

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

    // MARK: Events

    /// The session's server-sent events, the current state first, until the session is deleted or the daemon stops.
    /// - Parameters:
    ///   - session: The session whose events to follow.
    ///   - lastEventID: The ``ServerSentEvent/id`` of the last event seen, to resume after a dropped connection: the
    ///     stream then starts with the events missed, or with a `gap` event and the current state when they are no
    ///     longer retained. Nil starts from the current state.
    public func events(session: String = defaultSession, after lastEventID: Int? = nil) async throws -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let resume = lastEventID.map { "?lastEventId=\($0)" } ?? ""
        let response = try await transport.send(ControlRequest(method: "GET", path: sessionPath(session, "/events") + resume, streaming: true))
        guard response.status == 200 else { throw try await error(from: response) }
        return ServerSentEvent.parse(response.body)
    }

    // MARK: Transport

    private func sessionPath(_ id: String, _ rest: String = "") -> String { "/v1/sessions/\(segment(id))\(rest)" }

    private func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }

    private func get<Response: Decodable>(_ path: String) async throws -> Response {
        try await decode(transport.send(ControlRequest(method: "GET", path: path)))
    }

    private func send<Response: Decodable>(_ method: String, _ path: String, body: some Encodable = JSONValue.object([:]),
                                           contentType: String = "application/json") async throws -> Response {
        try await decode(transport.send(ControlRequest(method: method, path: path, body: try JSONEncoder.services.encode(body),
                                                       contentType: contentType)))
    }

    private func sendExpectingNoContent(_ method: String, _ path: String, body: JSONValue? = nil) async throws {
        let data = try body.map { try JSONEncoder.services.encode($0) }
        let response = try await transport.send(ControlRequest(method: method, path: path, body: data))
        guard response.status == 204 else { throw try await error(from: response) }
    }

    private func decode<Response: Decodable>(_ response: ControlResponse) async throws -> Response {
        let bytes = try await response.collect(upTo: 64 << 20)
        guard (200..<300).contains(response.status) else { throw apiError(status: response.status, bytes: bytes) }
        do {
            return try JSONDecoder.services.decode(Response.self, from: bytes)
        } catch {
            throw ScenarioClientError.unexpectedResponse(status: response.status, detail: "\(error)")
        }
    }

    private func error(from response: ControlResponse) async throws -> ScenarioClientError {
        apiError(status: response.status, bytes: try await response.collect(upTo: 1 << 20))
    }

    private func apiError(status: Int, bytes: ByteBuffer) -> ScenarioClientError {
        if let body = try? JSONDecoder().decode(APIErrorBody.self, from: bytes) {
            return .api(status: status, body: body)
        }
        return .unexpectedResponse(status: status, detail: String(buffer: bytes))
    }
}
