public import Foundation

/// Reads `text/event-stream` bytes, chunk by chunk, into ``SSEEvent``s, as WHATWG HTML §9.2.6 describes: lines
/// end with CR, LF or CRLF (a CR and its LF may arrive in different chunks), `:` starts a comment, a blank line
/// dispatches, and an event still open when the stream ends is discarded.
///
/// Written by hand because the maintained parser (mattt/EventSource) is an actor fed one byte per call, three hops a
/// byte off the session's executor, and its client needs `URLSession.bytes`, which Linux's Foundation lacks.
public struct SSEParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: String?
    private var lastEventID: String?
    private var retry: Int?

    /// Creates a parser at the start of a stream.
    public init() {}

    /// Reads `chunk` and returns the events it completes, in order.
    public mutating func consume(_ chunk: Data) -> [SSEEvent] {
        var events: [SSEEvent] = []
        for byte in chunk {
            switch byte {
            case UInt8(ascii: "\n") where afterCR:
                afterCR = false
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                afterCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                afterCR = false
                line.append(byte)
            }
        }
        return events
    }

    /// The end of the stream: an event not yet dispatched by a blank line is dropped, as the standard says.
    public mutating func finish() {
        line.removeAll()
        data.removeAll()
        hasData = false
        eventType = nil
        retry = nil
    }

    private mutating func endLine() -> SSEEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            // A byte order mark may open the stream; it is not part of the first line.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = colon.map { line[..<$0] } ?? line[...]
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
        case "id" where !value.contains(0):
            lastEventID = String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }):
            retry = Int(String(decoding: value, as: UTF8.self))
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> SSEEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = nil
            retry = nil
        }
        // A block with no data line dispatches nothing (it only set the type, the id or the retry).
        guard hasData else { return nil }
        let type = eventType.flatMap { $0.isEmpty ? nil : $0 }
        return SSEEvent(event: type, id: lastEventID.flatMap { $0.isEmpty ? nil : $0 },
                               data: String(decoding: data, as: UTF8.self), retry: retry)
    }
}
