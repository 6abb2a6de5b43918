/// One server-sent event (`text/event-stream`, WHATWG HTML §9.2): what ``SSEParser`` dispatches and what a
/// scenario's streamed route writes.
public struct SSEEvent: Sendable, Hashable, Codable {
    /// The event's type (`event:`), or nil for the default type, `message`.
    public var event: String?
    /// The last event ID (`id:`) when the event was dispatched; it carries over to later events until another `id:`.
    public var id: String?
    /// The data lines, joined with line feeds.
    public var data: String
    /// The reconnection time in milliseconds, when this event's block set one (`retry:`).
    public var retry: Int?

    /// Creates an event.
    public init(event: String? = nil, id: String? = nil, data: String, retry: Int? = nil) {
        self.event = event
        self.id = id
        self.data = data
        self.retry = retry
    }

    /// The event in the wire format, one field per line and a `data:` line per line of ``data``, ending with the
    /// blank line that dispatches it.
    public var text: String {
        var lines: [String] = []
        if let event { lines.append("event: \(event)") }
        if let id { lines.append("id: \(id)") }
        if let retry { lines.append("retry: \(retry)") }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("data: \(line)") }
        return lines.joined(separator: "\n") + "\n\n"
    }
}
