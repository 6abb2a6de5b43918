import Foundation
public import Logging

/// A swift-log handler that writes one line per event to stderr, prefixed with `<N>` (the syslog priority), which
/// journald understands when it reads the stream, and with metadata as `key=value` pairs after the message.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler.
    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        Self.write(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { _, new in new })
    }

    static func write(level: Logger.Level, message: String, metadata: Logger.Metadata) {
        let pairs = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        // One write per line, so lines from different threads do not interleave.
        let line = "<\(level.syslogPriority)>\(message.replacingOccurrences(of: "\n", with: " "))\(pairs)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
