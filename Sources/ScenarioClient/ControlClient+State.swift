public import ControlAPI
public import Services

/// A session's key-value state and the state of its team's services.
extension ControlClient {
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
}
