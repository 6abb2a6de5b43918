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
        // Merged only when both have some: a line is written for every change a client makes.
        let merged = switch (metadata.isEmpty, event.metadata) {
        case (_, nil): metadata
        case (true, let event?): event
        case (false, let event?): metadata.merging(event) { _, new in new }
        }
        Self.write(level: event.level, message: "\(event.message)", metadata: merged)
    }

    static func write(level: Logger.Level, message: String, metadata: Logger.Metadata) {
        var line = "<\(level.syslogPriority)>"
        // A line per event: a newline in a message would start a line journald reads as another event.
        line += message.utf8.contains(UInt8(ascii: "\n")) ? message.replacingOccurrences(of: "\n", with: " ") : message
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        line += "\n"
        // One write(2) per line, so lines from different threads do not interleave; straight from the string's
        // bytes, since this runs for every change a client makes (perf, issue 32).
        line.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = Foundation.write(STDERR_FILENO, bytes.baseAddress! + written, bytes.count - written)
                if result > 0 {
                    written += result
                } else if result < 0, errno == EINTR {
                    continue
                } else {
                    return  // stderr is gone; there is nowhere left to say so
                }
            }
        }
    }
}
