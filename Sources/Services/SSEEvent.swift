public import Foundation

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
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// ``text`` as UTF-8 bytes, what a stream sends.
    public var bytes: Data {
        var data = data
        return data.withUTF8 { Self.bytes(event: event, id: id, retry: retry, data: $0) }
    }

    /// The wire form of an event whose data is `data`'s UTF-8, written byte by byte: a big fixture's every event
    /// passes here, its data never made a String.
    package static func bytes(event: String?, id: String?, retry: Int?, data: UnsafeBufferPointer<UInt8>) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 32)
        for (name, value) in [("event: ", event), ("id: ", id), ("retry: ", retry.map(String.init))] {
            guard let value else { continue }
            out += name.utf8
            out += value.utf8
            out.append(UInt8(ascii: "\n"))
        }
        // A line ends at each line feed, except one after a carriage return: "\r\n" is one Character, which was
        // never split.
        var start = 0
        for index in data.indices where data[index] == UInt8(ascii: "\n") && (index == 0 || data[index - 1] != UInt8(ascii: "\r")) {
            out += "data: ".utf8
            out += data[start..<index]
            out.append(UInt8(ascii: "\n"))
            start = index + 1
        }
        out += "data: ".utf8
        out += data[start...]
        out += "\n\n".utf8
        return Data(out)
    }
}
