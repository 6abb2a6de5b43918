import ControlAPI
import Fakes
public import Foundation
import Logging
import ScenarioFormat
public import Services
import SessionRuntime

// The session's key-value state, as clients read and edit it.
extension Session {
    // MARK: Key-value state

    /// Every key in the session's store, sorted.
    public func keyValueKeys() async throws(HostError) -> [String] {
        let store = try live().store
        do { return try await store.keys() } catch { throw storeError(error) }
    }

    /// The value under `key`.
    /// - Throws: ``HostError`` `.unknownKey` when there is none.
    public func keyValue(_ key: String) async throws(HostError) -> JSONValue {
        try KeyName.validate(key)
        let store = try live().store
        let data: Data?
        do { data = try await store.data(forKey: key) } catch { throw storeError(error) }
        guard let data else { throw unknownKey(key) }
        return (try? JSONValue(json: data)) ?? .string(String(decoding: data, as: UTF8.self))
    }

    /// Stores `value` under `key`. The Model sees it the next time it reads the key.
    public func setKeyValue(_ key: String, to value: JSONValue) async throws(HostError) {
        try KeyName.validate(key)
        try admit("store key '\(key)'")
        await takeTurn()
        defer { endTurn() }
        try await setKeyValueNow(key, value)
        await remember(.setKeyValue(key: key, value: value))
    }

    func setKeyValueNow(_ key: String, _ value: JSONValue) async throws(HostError) {
        let store = try live().store
        do { try await store.setData(value.jsonData, forKey: key) } catch { throw storeError(error) }
        logger.info("key-value entry '\(key)' set")
    }

    /// Removes `key`.
    /// - Throws: ``HostError`` `.unknownKey` when there is none.
    public func removeKeyValue(_ key: String) async throws(HostError) {
        try KeyName.validate(key)
        await takeTurn()
        defer { endTurn() }
        try await removeKeyValueNow(key)
        await remember(.removeKeyValue(key: key))
    }

    func removeKeyValueNow(_ key: String) async throws(HostError) {
        let store = try live().store
        let existed: Bool
        do {
            existed = try await store.data(forKey: key) != nil
            if existed { try await store.removeValue(forKey: key) }
        } catch {
            throw storeError(error)
        }
        guard existed else { throw unknownKey(key) }
        logger.info("key-value entry '\(key)' removed")
    }

    /// Every key-value entry and the clock's time, read together between operations: where the session stands.
    public func snapshot() async throws(HostError) -> (keyValues: [String: Data], now: Date) {
        await takeTurn()
        defer { endTurn() }
        let runtime = try live()
        var values: [String: Data] = [:]
        do {
            for key in try await runtime.store.keys() {
                if let data = try await runtime.store.data(forKey: key) { values[key] = data }
            }
        } catch {
            throw storeError(error)
        }
        return (values, runtime.clock.now())
    }

    private func unknownKey(_ key: String) -> HostError {
        HostError(.unknownKey, "session '\(id)' has no key-value entry '\(key)'.")
    }

    private func storeError(_ error: any Error) -> HostError {
        HostError(.storeFailed, "the key-value store of session '\(id)' failed: \(error)")
    }
}
