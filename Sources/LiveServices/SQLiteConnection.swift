import CSQLite
import Foundation

/// One open SQLite database file. Written by hand over libsqlite3 because a key-value table needs five
/// statements, which does not justify GRDB's build time; not thread-safe: its owner confines it to one thread.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    let path: String

    /// Opens (creating if needed) the database at `path`.
    init(path: String) throws(SQLiteError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory", path: path)
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, which may hold several statements and returns no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs one statement with `bindings` and returns every row, each column as text, blob, integer or nil.
    @discardableResult
    func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK else { throw error(prepared) }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, transientDestructor)
            case .blob(let data):
                code = data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transientDestructor) }
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw error(code) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    private func column(_ statement: OpaquePointer?, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        default:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        }
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), path: path)
    }
}

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies bound bytes before the call returns. A C macro Swift cannot import.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to or read from a statement.
enum SQLiteValue: Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob(Data)
}

/// A failed SQLite call: the result code, SQLite's own message and the database file.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The database file.
    public var path: String

    /// Whether the disk (or the file system's quota) is full: writes can succeed again once space returns.
    public var isDiskFull: Bool { code & 0xff == SQLITE_FULL }

    public var description: String {
        isDiskFull
            ? "\(path): the disk is full (\(message)); free space and retry, nothing was written"
            : "\(path): \(message) (SQLite error \(code))"
    }
}
