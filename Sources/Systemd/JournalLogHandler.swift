import CSystemd
import Foundation
public import Logging

/// A swift-log handler that writes structured entries to the systemd journal through `sd_journal_sendv`.
///
/// Metadata whose key is a valid journal field name once upper-cased (`session` → `SESSION`) becomes that field,
/// so `journalctl SESSION=s1` finds a session's lines. The call site becomes `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let identifier: String

    /// Creates a handler; `identifier` becomes `SYSLOG_IDENTIFIER`.
    public init(identifier: String) {
        self.identifier = identifier
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(event.level.syslogPriority)",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            guard let name = JournalField.name(for: key) else { continue }
            fields.append("\(name)=\(value)")
        }
        if !Self.send(fields) {
            // No journal to talk to (journald not running): keep the line rather than lose it.
            StderrLogHandler.write(level: event.level, message: "\(event.message)", metadata: merged)
        }
    }

    /// journald's socket. libsystemd drops an entry silently (and reports success) when it is missing, so it is
    /// looked for before each send: a line is never lost to a journal that is not there.
    static let socketPath = "/run/systemd/journal/socket"

    /// Sends one entry, each field `NAME=value` (values may hold newlines); false when there is no journal or it
    /// refused the entry.
    static func send(_ fields: [String]) -> Bool {
        guard access(socketPath, F_OK) == 0 else { return false }
        let buffers = fields.map { field in
            let bytes = Array(field.utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        var vectors = buffers.map { iovec(iov_base: UnsafeMutableRawPointer($0.baseAddress), iov_len: $0.count) }
        return sd_journal_sendv(&vectors, Int32(vectors.count)) >= 0
    }
}

/// Journal field names: 1–64 of `[A-Z0-9_]`, not starting with `_` or a digit (others are dropped by journald).
enum JournalField {
    static func name(for key: String) -> String? {
        let name = key.uppercased().map { $0 == "-" || $0 == "." ? "_" : $0 }
        guard (1...64).contains(name.count), let first = name.first, first != "_", !first.isNumber,
              name.allSatisfy({ ($0.isASCII && $0.isUppercase) || $0.isNumber || $0 == "_" }) else { return nil }
        return String(name)
    }
}

extension Logger.Level {
    /// The syslog priority journald and `<N>` stderr prefixes use.
    public var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
