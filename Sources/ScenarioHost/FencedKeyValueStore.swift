import Fakes
import Foundation
import Services

/// A durable store as one generation of a session sees it: once the session lets go of the generation (delete,
/// reset, rewind), the generation's leftover work can no longer write to the file later sessions share.
struct FencedKeyValueStore: KeyValueService {
    let store: any KeyValueService
    let scope: SessionScope

    private func open() throws {
        if scope.isClosed { throw CancellationError() }
    }

    func keys() async throws -> [String] {
        try open()
        return try await store.keys()
    }

    func data(forKey key: String) async throws -> Data? {
        try open()
        return try await store.data(forKey: key)
    }

    func setData(_ data: Data, forKey key: String) async throws {
        try open()
        try await store.setData(data, forKey: key)
    }

    func removeValue(forKey key: String) async throws {
        try open()
        try await store.removeValue(forKey: key)
    }
}
