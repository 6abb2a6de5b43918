public import Foundation
import NIOCore
import NIOPosix
public import Services

/// A durable key-value store: one SQLite database file in WAL mode. A write returns only once its transaction
/// has committed and SQLite has synced it to disk (`synchronous=FULL`), so an acknowledged write survives a crash
/// of the process or the machine.
///
/// The actor runs on a thread of its own (an event loop nothing else uses), so SQLite's blocking calls and
/// fsyncs never hold up Swift's shared concurrency threads.
public actor SQLiteKeyValueStore: KeyValueService {
    private let thread: MultiThreadedEventLoopGroup
    private let eventLoop: any EventLoop
    private let connection: SQLiteConnection

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    /// The database file.
    public nonisolated let path: String

    /// Opens the database at `path`, creating it and writing `seed` in one transaction when it is new.
    /// - Throws: ``SQLiteError`` when the file cannot be opened, is not a database, or cannot be set up.
    public static func open(path: String, seed: [String: Data] = [:]) async throws -> SQLiteKeyValueStore {
        let store = try SQLiteKeyValueStore(path: path)
        try await store.setUp(seed: seed)
        return store
    }

    private init(path: String) throws {
        self.path = path
        self.thread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.eventLoop = thread.next()
        do {
            self.connection = try SQLiteConnection(path: path)
        } catch {
            try? thread.syncShutdownGracefully()
            throw error
        }
    }

    private func setUp(seed: [String: Data]) throws {
        try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=5000;")
        try transaction {
            // user_version 0 is a new file: create the table and write the seed with it, all or nothing.
            guard case .integer(0)? = try connection.query("PRAGMA user_version").first?.first else { return }
            try connection.execute("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID")
            try write(seed)
            try connection.execute("PRAGMA user_version = 1")
        }
    }

    /// Closes the database and stops its thread.
    public func close() async {
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // The thread cannot be shut down from itself; hand that to a task off it.
        let thread = self.thread
        Task.detached { try? await thread.shutdownGracefully() }
    }

    public func keys() throws -> [String] {
        try connection.query("SELECT key FROM entries ORDER BY key").compactMap {
            if case .text(let key)? = $0.first { key } else { nil }
        }
    }

    public func data(forKey key: String) throws -> Data? {
        guard case .blob(let data)? = try connection.query("SELECT value FROM entries WHERE key = ?", [.text(key)]).first?.first else {
            return nil
        }
        return data
    }

    public func setData(_ data: Data, forKey key: String) throws {
        try connection.query("INSERT INTO entries (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                             [.text(key), .blob(data)])
    }

    public func removeValue(forKey key: String) throws {
        try connection.query("DELETE FROM entries WHERE key = ?", [.text(key)])
    }

    /// Replaces every entry with `entries`, in one transaction.
    public func replaceAll(with entries: [String: Data]) throws {
        try transaction {
            try connection.execute("DELETE FROM entries")
            try write(entries)
        }
    }

    /// SQLite's own check of the file: `["ok"]` when it is sound.
    public func integrityCheck() throws -> [String] {
        try connection.query("PRAGMA integrity_check").compactMap {
            if case .text(let line)? = $0.first { line } else { nil }
        }
    }

    private func write(_ entries: [String: Data]) throws {
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            try setData(value, forKey: key)
        }
    }

    private func transaction(_ body: () throws -> Void) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
