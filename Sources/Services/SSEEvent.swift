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
        var text = ""
        text.reserveCapacity(data.utf8.count + 32)
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        // Split on the byte, not on Characters (a big fixture's every event passes here), unless the data holds a
        // CR: then "\r\n" is one Character, which is not split, as it never was.
        let lines: [Substring] = data.utf8.contains(UInt8(ascii: "\r"))
            ? data.split(separator: "\n", omittingEmptySubsequences: false)
            : data.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        for line in lines {
            text += "data: "
            text += line
            text += "\n"
        }
        return text + "\n"
    }
}
