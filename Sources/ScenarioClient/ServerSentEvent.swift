import Foundation
package import NIOCore
public import Services

/// One server-sent event of a session's stream: its name (``/ControlAPI/EventName``) and JSON data.
public struct ServerSentEvent: Sendable, Hashable {
    /// `stateChanged`, `requestJournaled`, `clockMoved`, `serviceChanged`, `historyChanged` (a change was kept in
    /// the history, or a rewind or reset replaced it), or `gap` (events missed while away are no longer retained;
    /// the current state follows).
    public var name: String
    /// The event's data.
    public var data: JSONValue
    /// Its place in the session's sequence: give the last one seen to ``ControlClient/events(session:after:)``
    /// to resume after a dropped connection.
    public var id: Int?

    /// An event as the stream delivers it; tests build one to feed code that consumes events.
    public init(name: String, data: JSONValue, id: Int? = nil) {
        self.name = name
        self.data = data
        self.id = id
    }

    /// Splits a `text/event-stream` body into events (blank-line separated `event:` and `data:` lines).
    package static func parse(_ body: any AsyncSequence<ByteBuffer, any Error> & Sendable) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var pending = ""
                do {
                    for try await buffer in body {
                        pending += String(buffer: buffer)
                        while let end = pending.range(of: "\n\n") {
                            let block = String(pending[..<end.lowerBound])
                            pending.removeSubrange(..<end.upperBound)
                            if let event = event(from: block) { continuation.yield(event) }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func event(from block: String) -> ServerSentEvent? {
        var name = "message"
        var data = ""
        var id: Int?
        for line in block.split(separator: "\n") {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
            if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
        }
        guard let value = try? JSONValue(json: Data(data.utf8)) else { return nil }
        return ServerSentEvent(name: name, data: value, id: id)
    }
}
