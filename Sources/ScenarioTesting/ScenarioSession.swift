public import ControlAPI
public import Foundation
public import ScenarioClient
public import Services

/// One isolated session of a scenario, as a test sees it: actions, state decoded into the test's own types,
/// virtual time, and assertions on the journal that explain themselves when they fail.
public struct ScenarioSession: Sendable {
    /// The session's id in the daemon.
    public let id: String
    /// The client, for anything the helpers do not cover.
    public let client: ControlClient
    /// The session's own HTTP listener, when ``withScenario(_:id:overriding:endpoint:daemon:_:)`` was given `endpoint`:
    /// where an app the daemon does not host sends its requests (its `url` and `token`, or its `proxy`).
    public var endpoint: SessionEndpointBody? = nil

    /// Performs an action and returns the Model's state once it has settled.
    @discardableResult
    public func perform(_ action: String, _ arguments: JSONValue = [:]) async throws -> JSONValue {
        try await client.perform(action, arguments: arguments, session: id)
    }

    /// Performs an action and decodes the settled state into `type`.
    public func perform<State: Decodable>(_ action: String, _ arguments: JSONValue = [:], as type: State.Type) async throws -> State {
        try decode(type, from: try await perform(action, arguments))
    }

    /// The Model's state decoded into `type`.
    public func state<State: Decodable>(as type: State.Type) async throws -> State {
        try decode(type, from: try await client.state(session: id))
    }

    /// The state of the fake of a service the team defines, decoded into `type` (usually the fake's own `State`).
    public func serviceState<State: Decodable>(_ name: String, as type: State.Type) async throws -> State {
        try decode(type, from: try await client.serviceState(name, session: id))
    }

    /// Replaces the whole state of the fake of a service the team defines; the Model sees it on its next call.
    public func setServiceState(_ name: String, to state: some Encodable) async throws {
        let json = try JSONValue(json: JSONEncoder.services.encode(state))
        try await client.setServiceState(name, to: json, session: id)
    }

    /// Changes part of the state of the fake of a service the team defines with a JSON merge patch (RFC 7396):
    /// `["permission": "denied"]` changes one member and keeps the rest, a `nil` member removes its key. The
    /// patched state is checked as a whole state given to ``setServiceState(_:to:)`` is.
    public func patchServiceState(_ name: String, with patch: JSONValue) async throws {
        try await client.patchServiceState(name, with: patch, session: id)
    }

    /// Moves the session's clock forward (`250ms`, `2s`, `15m`); what falls due has run when this returns.
    @discardableResult
    public func advanceClock(by duration: String) async throws -> Date {
        try await client.advanceClock(by: duration, session: id)
    }

    /// Watches the session's events while moving its clock forward `step` at a time, until a state satisfies
    /// `predicate`, and returns that state. Bounded by virtual time (`limit`), never by wall time.
    /// - Throws: ``ScenarioTestingError`` naming the last state when `limit` passes first.
    public func waitForState<State: Decodable & Sendable>(
        as type: State.Type, advancingBy step: String = "1s", upTo limit: String = "1h",
        where predicate: (State) -> Bool
    ) async throws -> State {
        guard let stepLength = DurationText.parse(step)?.seconds, let limitLength = DurationText.parse(limit)?.seconds, stepLength > 0 else {
            throw ScenarioTestingError("'\(step)' and '\(limit)' must be durations such as 1s or 15m")
        }
        var events = try await client.events(session: id).makeAsyncIterator()
        var last: JSONValue?
        var moved = 0.0
        var target: Date?
        while true {
            guard let event = try await events.next() else { throw ScenarioTestingError("session \(id) ended while waiting") }
            switch event.name {
            case EventName.stateChanged.rawValue:
                last = event.data
                if predicate(try decode(type, from: event.data)) { return try decode(type, from: event.data) }
                if target != nil { continue }
            case EventName.clockMoved.rawValue:
                // A move's clockMoved comes after the state it produced; only then is the next step taken.
                guard let target, (try? decode(ClockBody.self, from: event.data))?.now ?? .distantPast >= target else { continue }
            default:
                continue
            }
            guard moved < limitLength else {
                throw ScenarioTestingError("session \(id): no state matched within \(limit) of clock time; the last was \(last.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? "none")")
            }
            moved += stepLength
            target = try await advanceClock(by: step)
        }
    }

    /// Adds route `name` to the running session, or replaces its route of that name (written as in a scenario
    /// file's `network.routes`; `name` may be left out). A reset undoes it.
    public func setRoute(_ name: String, _ route: JSONValue) async throws {
        try await client.setRoute(name, to: route, session: id)
    }

    /// Removes route `name` from the running session; a reset restores it.
    public func removeRoute(_ name: String) async throws {
        try await client.removeRoute(name, session: id)
    }

    /// Switches the session's network, as a browser's developer tools do: `offline`, a `fault` for every request
    /// (`timeout`, `connectionReset`, …), or a `delay` added to every answer (`2s`). Called with no arguments it
    /// switches back to the scenario's network; a reset does too.
    public func setNetworkConditions(offline: Bool = false, fault: String? = nil, delay: String? = nil) async throws {
        try await client.setNetworkConditions(.init(offline: offline ? true : nil, fault: fault, delay: delay), session: id)
    }

    /// What the test did to the session, step by step (step 0 is the start).
    public func history() async throws -> [HistoryBody.Step] {
        try await client.history(session: id).steps
    }

    /// Returns the session to the moment after `step` of its history (0: its start) and returns the Model's state.
    @discardableResult
    public func rewind(to step: Int) async throws -> JSONValue {
        try await client.rewind(to: step, session: id)
    }

    /// The journal: every request the Model made, oldest first (not those the test sent itself with ``send(_:_:headers:body:wait:)``).
    public func requests() async throws -> [NetworkExchange] {
        try await client.journal(session: id).entries.filter { $0.outside != true }
    }

    /// Sends one request through the session's network from outside, exactly as its Model's network service would
    /// (routes, sequences, network conditions, faults, delays), and returns what it got: the response
    /// (``/ControlAPI/SentRequestBody/status``, ``/ControlAPI/SentRequestBody/bodyData``) or the transport error
    /// (``/ControlAPI/SentRequestBody/fault``), with its journal entry (the route that answered, or the near misses).
    /// The Model is not told, and ``requests()`` leaves the request out; the route's count
    /// (``expectRequest(route:times:)``) includes it, as the route answered it. An answer that waits on the session's
    /// clock is waited for unless `wait` is false: then it comes back `pending`, for
    /// ``/ScenarioClient/ControlClient/sentRequest(_:session:)``.
    @discardableResult
    public func send(_ method: String, _ url: String, headers: [String] = [], body: String? = nil, wait: Bool = true) async throws -> SentRequestBody {
        try await client.sendRequest(SendRequestBody(method: method, url: url, headers: headers.isEmpty ? nil : headers, body: body,
                                                     wait: wait ? nil : false), session: id)
    }

    /// Asserts that a request was made, with a body containing `body` (JSON, by subset) when given.
    /// - Returns: the journal entry.
    /// - Throws: ``ScenarioTestingError`` listing the requests that were made instead.
    @discardableResult
    public func expectRequest(_ method: String, _ url: String, bodyContaining body: JSONValue? = nil) async throws -> NetworkExchange {
        let entries = try await requests()
        let found = entries.first { entry in
            guard entry.method == method, entry.url == url else { return false }
            guard let body else { return true }
            return (entry.body.flatMap { try? JSONValue(json: Data($0.utf8)) })?.contains(body) ?? false
        }
        guard let found else {
            let made = entries.map { "  #\($0.sequence) \($0.method) \($0.url)\($0.body.map { " \($0)" } ?? "")" }.joined(separator: "\n")
            let wanted = body.map { " with a body containing \(String(decoding: $0.jsonData, as: UTF8.self))" } ?? ""
            throw ScenarioTestingError("session \(id) made no request \(method) \(url)\(wanted). It made:\n\(made.isEmpty ? "  (none)" : made)")
        }
        return found
    }

    /// Asserts that route `route` answered exactly `times` requests since the session started (or was reset, or its
    /// journal cleared). Counted by the daemon as requests arrive, so it stays exact however long the journal grows.
    /// - Throws: ``ScenarioTestingError`` with the count and the requests the route answered, or the routes the
    ///   scenario has when it has no route of that name.
    public func expectRequest(route: String, times: Int) async throws {
        let counts = try await client.requestCounts(session: id)
        guard let answered = counts.routes[route] else {
            throw ScenarioTestingError("session \(id)'s scenario has no route '\(route)'; its routes are \(counts.routes.keys.sorted().joined(separator: ", ")).")
        }
        guard answered != times else { return }
        let made = try await requests().filter { $0.route == route }
            .map { "  #\($0.sequence) \($0.method) \($0.url)" }.joined(separator: "\n")
        throw ScenarioTestingError("route '\(route)' of session \(id) answered \(answered) request\(answered == 1 ? "" : "s"), not \(times)"
            + (made.isEmpty ? "." : ":\n\(made)"))
    }

    /// Asserts that every request matched a route.
    /// - Throws: ``ScenarioTestingError`` explaining each unmatched request: its closest routes and where they differed.
    public func expectNoUnmatchedRequests() async throws {
        let unmatched = try await client.unmatchedRequests(session: id).entries
        guard !unmatched.isEmpty else { return }
        throw ScenarioTestingError("session \(id) made \(unmatched.count) request\(unmatched.count == 1 ? "" : "s") that matched no route:\n"
            + unmatched.map(Self.explain).joined(separator: "\n"))
    }

    /// `GET url matched no route`, then `closest route 'r' differs in /query/user: expected …, got …` per near miss.
    static func explain(_ entry: NetworkExchange) -> String {
        let misses = (entry.nearMisses ?? []).map { "    \($0.explanation)" }
        return "  #\(entry.sequence) \(entry.method) \(entry.url) matched no route" + (misses.isEmpty ? " (the scenario has no routes)" : "\n" + misses.joined(separator: "\n"))
    }

    private func decode<State: Decodable>(_ type: State.Type, from value: JSONValue) throws -> State {
        do {
            return try JSONDecoder.services.decode(type, from: value.jsonData)
        } catch let error as DecodingError {
            throw ScenarioTestingError("session \(id): the state does not decode as \(type): \(error.sentence)")
        } catch {
            throw ScenarioTestingError("session \(id): the state does not decode as \(type): \(error)")
        }
    }
}
