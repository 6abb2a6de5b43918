import ControlAPI
import Foundation
public import ScenarioClient
public import Services

/// Walks over the control API: each step a request to the daemon.
extension ControlClient: WalkTarget {
    public func openSession(scenario: String, id: String, overrides: JSONValue?) async throws -> any WalkSession {
        let session = try await createSession(scenario: scenario, id: id, overrides: overrides)
        return ClientWalkSession(client: self, id: session.id, openedAt: session.now)
    }

    public func saveSession(_ id: String, as name: String, description: String) async throws -> String {
        try await saveSession(as: name, description: description, session: id).scenario
    }
}

/// A walk's session behind a daemon's control API.
struct ClientWalkSession: WalkSession {
    let client: ControlClient
    let id: String
    let openedAt: Date

    func state() async throws -> JSONValue { try await client.state(session: id) }

    func perform(_ action: String, arguments: JSONValue) async throws -> JSONValue {
        try await client.perform(action, arguments: arguments, session: id)
    }

    func advanceClock(by duration: Duration) async throws -> Date {
        try await client.advanceClock(by: DurationText.format(duration), session: id)
    }

    func nextWake() async throws -> Date? { try await client.nextWake(session: id) }

    func setNetworkConditions(_ conditions: NetworkConditionsBody) async throws {
        _ = try await client.setNetworkConditions(conditions, session: id)
    }

    func setRoute(_ name: String, to json: JSONValue) async throws { try await client.setRoute(name, to: json, session: id) }

    func setKeyValue(_ key: String, to value: JSONValue) async throws { _ = try await client.setKeyValue(key, to: value, session: id) }

    func removeKeyValue(_ key: String) async throws { try await client.removeKeyValue(key, session: id) }

    func store() async throws -> JSONValue {
        var members: [String: JSONValue] = [:]
        for key in try await client.keyValueKeys(session: id) {
            members[key] = try await client.keyValue(key, session: id)
        }
        return .object(members)
    }

    func journal() async throws -> JSONValue {
        try JSONValue(json: JSONEncoder.services.encode(await client.journal(session: id).entries))
    }

    func closeOldestStream(fault: TransportError?) async throws -> JSONValue? {
        guard let oldest = try await client.streams(session: id).first(where: { $0.live != true }) else { return nil }
        return try await client.closeStream(oldest.stream, fault: fault, session: id)
    }

    func requestCounts() async throws -> RequestCountsBody { try await client.requestCounts(session: id) }

    func firstUnmatchedRequest() async throws -> String? {
        try await client.unmatchedRequests(session: id).entries.first.map { "\($0.method) \($0.url)" }
    }

    func firstEscape() async throws -> String? {
        try await client.session(id).escapes.first?.sentence
    }

    func delete() async throws { try await client.deleteSession(id) }
}
