import Fakes
import Foundation
import Services
import SessionRuntime

/// A key-value store as one generation of a session sees it. A call counts as the session's work under way, since
/// the store runs elsewhere (a SQLite file's own executor, or an actor a client's read may hold), so the session is
/// not settled while the Model waits on it. Once the session lets go of the generation (delete, reset, rewind),
/// the generation's leftover work can no longer read or write it, nor the file later sessions share.
struct SessionKeyValueStore: KeyValueService {
    let store: any KeyValueService
    let scope: SessionScope
    /// Whether a call from work the session did not start is an escape: true for the Model's store, false for the
    /// host's (the control API edits the store from its own tasks).
    var checksCaller = false
    /// Whether the store answers from outside the session (a database file on its own executor), so that a seeded
    /// session reports its answers as unordered.
    var answersFromOutside = false

    private func call<T: Sendable>(_ operation: (any KeyValueService) async throws -> T) async throws -> T {
        if checksCaller { scope.checkCaller(of: "keyValue") }
        if scope.isClosed { throw CancellationError() }
        defer { if answersFromOutside { scope.noteOutsideArrival(from: "the durable key-value store") } }
        return try await scope.executor.waitingOutside { () async throws -> T in try await operation(store) }
    }

    func keys() async throws -> [String] {
        try await call { try await $0.keys() }
    }

    func data(forKey key: String) async throws -> Data? {
        try await call { try await $0.data(forKey: key) }
    }

    func setData(_ data: Data, forKey key: String) async throws {
        try await call { try await $0.setData(data, forKey: key) }
    }

    func removeValue(forKey key: String) async throws {
        try await call { try await $0.removeValue(forKey: key) }
    }
}
