import Foundation
public import Logging

/// Where the daemon's log lines go.
public enum LogTarget: String, Sendable, CaseIterable {
    /// The systemd journal, with structured fields (stderr when no journal answers).
    case journal
    /// stderr with `<N>` priority prefixes.
    case stderr
    /// The journal when stderr is connected to it (`$JOURNAL_STREAM` names stderr), else stderr.
    case auto

    /// `auto` resolved against this process's stderr.
    public var resolved: LogTarget {
        guard self == .auto else { return self }
        return Self.stderrIsJournal() ? .journal : .stderr
    }

    /// A handler factory for `LoggingSystem.bootstrap`.
    public func makeHandler(identifier: String, level: Logger.Level) -> any LogHandler {
        switch resolved {
        case .journal, .auto:
            var handler = JournalLogHandler(identifier: identifier)
            handler.logLevel = level
            return handler
        case .stderr:
            var handler = StderrLogHandler()
            handler.logLevel = level
            return handler
        }
    }

    /// systemd sets `JOURNAL_STREAM=dev:inode` of the stream it connected; compare with stderr's.
    static func stderrIsJournal() -> Bool {
        guard let value = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":").compactMap { UInt64($0) }
        var info = stat()
        guard parts.count == 2, fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == parts[0] && UInt64(info.st_ino) == parts[1]
    }
}
