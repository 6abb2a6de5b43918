import Foundation
import LiveServices
import Services
import Testing

/// The durable store against real database files in a temporary directory.
@Suite struct SQLiteKeyValueStoreTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("kv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var path: String { directory.appendingPathComponent("store.sqlite").path }

    @Test func writesSurviveClosingAndReopening() async throws {
        let store = try await SQLiteKeyValueStore.open(path: path, seed: ["greeting": Data(#""hello""#.utf8)])
        try await store.set(["a", "b"], forKey: "readItems")
        try await store.removeValue(forKey: "greeting")
        await store.close()

        let reopened = try await SQLiteKeyValueStore.open(path: path, seed: ["greeting": Data(#""hello""#.utf8)])
        #expect(try await reopened.keys() == ["readItems"], "the seed is written only into a new file")
        #expect(try await reopened.value([String].self, forKey: "readItems") == ["a", "b"])
        #expect(try await reopened.integrityCheck() == ["ok"])
        await reopened.close()
    }

    @Test func theFileIsInWALMode() async throws {
        let store = try await SQLiteKeyValueStore.open(path: path)
        try await store.setData(Data("1".utf8), forKey: "n")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        await store.close()
    }

    @Test func replaceAllLeavesExactlyTheGivenEntries() async throws {
        let store = try await SQLiteKeyValueStore.open(path: path, seed: ["x": Data("1".utf8)])
        try await store.setData(Data("2".utf8), forKey: "y")
        try await store.replaceAll(with: ["z": Data("3".utf8)])
        #expect(try await store.keys() == ["z"])
        #expect(try await store.data(forKey: "z") == Data("3".utf8))
        await store.close()
    }

    @Test func aFileThatIsNotADatabaseIsAnErrorNamingIt() async throws {
        try Data("this is not sqlite, not even close, and it is long enough to have a header".utf8).write(to: URL(fileURLWithPath: path))
        do {
            let store = try await SQLiteKeyValueStore.open(path: path)
            await store.close()
            Issue.record("opening a text file as a database succeeded")
        } catch let error as SQLiteError {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("not a database"))
        }
    }
}
