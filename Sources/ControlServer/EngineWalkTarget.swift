import ControlAPI
import Fakes
import Foundation
package import ScenarioClient
package import ScenarioExplore
package import ScenarioHost
package import Services

/// Walks straight on the in-process daemon's engine: each step a call on the session, with no request to encode,
/// route and decode (the in-process control API's cost was three quarters of a step's). Refusals are thrown as the
/// control API would answer them, so a walk here counts steps as it does over a socket.
package struct EngineWalkTarget: WalkTarget {
    package let host: SessionHost
    /// The same daemon's control API, for what is done once per exploration and is more than a call on the engine:
    /// a save also reloads the scenarios, so the saved one can be opened.
    package let client: ControlClient
    /// The states parsed lately, shared by the walks: a walk's replay goes through its walk's states again, and
    /// walks of one scenario reach many of the same states.
    package let parsed = ParsedStates()

    package init(host: SessionHost, client: ControlClient) {
        self.host = host
        self.client = client
    }

    package func openSession(scenario: String, id: String, overrides: JSONValue?) async throws -> any WalkSession {
        let session = try await refusing { () throws(HostError) in try await host.createSession(of: scenario, id: id, overrides: overrides) }
        return EngineWalkSession(host: host, session: session, parsed: parsed,
                                 openedAt: try await refusing { () throws(HostError) in try await session.now() })
    }

    package func saveSession(_ id: String, as name: String, description: String) async throws -> String {
        try await client.saveSession(id, as: name, description: description)
    }

    package func deleteSession(_ id: String) async throws {
        try await refusing { () throws(HostError) in try await host.deleteSession(id) }
    }
}

/// One walk's session on the engine.
struct EngineWalkSession: WalkSession {
    let host: SessionHost
    let session: Session
    /// Parsing a state is most of what reading it costs, and most steps leave it as it was.
    let parsed: ParsedStates
    let openedAt: Date

    var id: String { session.id }

    func state() async throws -> JSONValue {
        try parsed.value(of: await refusing { () throws(HostError) in try await session.state() })
    }

    func perform(_ action: String, arguments: JSONValue) async throws -> JSONValue {
        try parsed.value(of: await refusing { () throws(HostError) in try await session.perform(action, arguments: arguments) })
    }

    func advanceClock(by duration: Duration) async throws -> Date {
        try await refusing { () throws(HostError) in try await session.advanceClock(by: duration) }
    }

    func nextWake() async throws -> Date? {
        try await refusing { () throws(HostError) in try await session.nextWake() }
    }

    func setNetworkConditions(_ body: NetworkConditionsBody) async throws {
        let conditions: NetworkConditions
        do { conditions = try NetworkConditions(body) } catch let error as APIError {
            throw ScenarioClientError.api(status: error.statusCode, body: error.body)
        }
        _ = try await refusing { () throws(HostError) in try await session.setNetworkConditions(conditions) }
    }

    func setRoute(_ name: String, to json: JSONValue) async throws {
        try await refusing { () throws(HostError) in
            try await session.setRoute(json, named: name, models: host.models.names, services: host.models.services)
        }
    }

    func setKeyValue(_ key: String, to value: JSONValue) async throws {
        try await refusing { () throws(HostError) in try await session.setKeyValue(key, to: value) }
    }

    func removeKeyValue(_ key: String) async throws {
        try await refusing { () throws(HostError) in try await session.removeKeyValue(key) }
    }

    func store() async throws -> JSONValue {
        try await refusing { () throws(HostError) in
            var members: [String: JSONValue] = [:]
            for key in try await session.keyValueKeys() { members[key] = try await session.keyValue(key) }
            return .object(members)
        }
    }

    func journal() async throws -> JSONValue {
        try JSONValue(json: JournalBody.json(entries: session.encodedJournal().entries, dropped: 0, capacity: 0)).value(at: "/entries") ?? []
    }

    func closeOldestStream(fault: TransportError?) async throws -> JSONValue? {
        try await refusing { () throws(HostError) -> ModelState? in
            guard let oldest = try await session.openStreams().first(where: { $0.live != true }) else { return nil }
            return try await session.closeStream(oldest.sequence, fault: fault)
        }.map(parsed.value(of:))
    }

    func requestCounts() async throws -> RequestCountsBody {
        let counts = await session.requestCounts()
        return RequestCountsBody(routes: counts.routes, unmatched: counts.unmatched, live: counts.passedThrough)
    }

    func firstUnmatchedRequest() async throws -> String? {
        await session.requestJournal().unmatched.first.map { "\($0.method) \($0.url)" }
    }

    func firstEscape() async throws -> String? {
        try await refusing { () throws(HostError) in try await session.info() }.escapes.first.map {
            ModelEscapeBody(kind: $0.kind.rawValue, detail: $0.detail, during: $0.during, remedy: $0.remedy).sentence
        }
    }

    func delete() async throws {
        try await refusing { () throws(HostError) in try await host.deleteSession(session.id) }
    }
}

/// States parsed lately, by their bytes.
package struct ParsedStates: Sendable {
    /// A state's bytes as a key: hashed whole, since states differ anywhere (they mostly begin alike).
    private struct Bytes: Hashable, Sendable {
        let data: Data
        func hash(into hasher: inout Hasher) { data.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    /// Bounded in bytes, so its memory stays small even for states of megabytes.
    private let memo = BoundedMemo<Bytes, JSONValue>("parsed states", count: 1 << 16, bytes: 8 << 20) { key, _ in key.data.count }

    package var figures: MemoFigures { memo.figures }

    func value(of state: ModelState) throws -> JSONValue {
        try memo.value(for: Bytes(data: state.jsonData)) { try state.value() }
    }
}

/// Runs `operation`, throwing its refusal as the control API would answer it.
private func refusing<T>(_ operation: () async throws(HostError) -> T) async throws -> T {
    do { return try await operation() } catch { throw ScenarioClientError(error) }
}

extension ScenarioClientError {
    /// The control API's answer to `error`.
    init(_ error: HostError) {
        let answer = APIError(error)
        self = .api(status: answer.statusCode, body: answer.body)
    }
}
