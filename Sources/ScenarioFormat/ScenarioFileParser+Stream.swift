import Fakes
import Foundation
import Services
import Yams

/// A streamed response: `response.stream` with its events (or chunks of text) at offsets from the moment the stream
/// opens, written inline or read from a fixture (`.jsonl`, one event per line; `.sse`, a transcript), and its end.
extension ScenarioFileParser {
    static let streamKeys = ["events", "file", "end", "endAt", "fault"]
    static let streamItemKeys = ["at", "event", "id", "data", "retry", "text"]

    /// A chunk as written: the item, an event's data (nil for raw text; what a template's escaping is chosen by, only
    /// when the chunk is a template, so a fixture's plain event keeps it only then and is `[]` otherwise), and where
    /// it was written (its fixture's node for a file's).
    typealias ParsedChunk = (item: StreamScript.Item, data: [String]?, node: Node)

    /// How a stream ends, as a scenario writes it.
    enum StreamEnd: String, CaseIterable {
        case close, stall, drop
    }

    /// The script and its chunks as written (with any event, `text/event-stream` is the default type).
    mutating func parseStream(_ node: Node, at path: String) -> (script: StreamScript, chunks: [ParsedChunk])? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.streamKeys) else { return nil }
        let problemsBefore = reader.problems.count
        var items: [ParsedChunk] = []
        switch (keys["events"], keys["file"]) {
        case (_?, _?):
            reader.report("\(path) has both 'events' and 'file'; keep one.", at: node)
        case (let list?, nil):
            for (index, item) in (reader.sequence(list, at: "\(path).events", of: "events") ?? []).enumerated() {
                let previous = items.last?.item.offset ?? .zero
                if let parsed = parseStreamItem(item, at: "\(path).events[\(index)]", after: previous) { items.append(parsed) }
            }
        case (nil, let fileNode?):
            if let name = reader.string(fileNode, at: "\(path).file") { items = streamFixture(name, at: "\(path).file", node: fileNode) }
        case (nil, nil):
            reader.report("\(path) needs 'events' (a list of events at offsets) or 'file' (a .jsonl or .sse fixture).", at: node)
        }
        let end = keys["end"].flatMap { reader.choice($0, at: "\(path).end", of: StreamEnd.self) } ?? .close
        var fault = TransportError.connectionReset
        if let faultNode = keys["fault"] {
            if end != .drop {
                reader.report("\(path) has a 'fault' but ends with '\(end.rawValue)'; a fault is what a dropped stream throws, so add 'end: drop' or remove 'fault'.", at: faultNode)
            }
            fault = reader.choice(faultNode, at: "\(path).fault", of: TransportError.self) ?? fault
        }
        let last = items.last?.item.offset ?? .zero
        var endOffset: Duration?
        if let endNode = keys["endAt"], let offset = offset(endNode, at: "\(path).endAt") {
            if offset < last {
                reader.report("\(path).endAt is \(DurationText.format(offset)), before the last event's \(DurationText.format(last)); end the stream at or after its last event.", at: endNode)
            }
            endOffset = offset
        }
        guard reader.problems.count == problemsBefore else { return nil }
        let scriptEnd: StreamScript.End = switch end {
        case .close: .close
        case .stall: .stall
        case .drop: .drop(fault)
        }
        return (StreamScript(items: items.map(\.item), end: scriptEnd, endOffset: endOffset), items)
    }

    /// One event (`data`, `event`, `id`, `retry`) or chunk of raw `text`, due `at` an offset (the previous one's when
    /// not written).
    private mutating func parseStreamItem(_ node: Node, at path: String, after previous: Duration) -> ParsedChunk? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.streamItemKeys) else { return nil }
        let problemsBefore = reader.problems.count
        var at = previous
        if let atNode = keys["at"], let offset = offset(atNode, at: "\(path).at") {
            if offset < previous {
                reader.report("\(path).at is \(DurationText.format(offset)), before the previous event's \(DurationText.format(previous)); list events in the order they arrive.", at: atNode)
            }
            at = offset
        }
        let fields = ["event", "id", "data", "retry"].filter { keys[$0] != nil }
        if let textNode = keys["text"] {
            if !fields.isEmpty {
                reader.report("\(path) has 'text' and \(fields.map { "'\($0)'" }.joined(separator: ", ")); 'text' is a chunk sent exactly as written, so keep either it or the event's fields.", at: node)
            }
            guard let text = reader.text(textNode, at: "\(path).text"), reader.problems.count == problemsBefore else { return nil }
            return (StreamScript.Item(offset: at, bytes: Data(text.utf8)), nil, node)
        }
        guard let dataNode = keys["data"] else {
            reader.report("\(path) needs 'data' (an event without data is never dispatched) or 'text' (a chunk sent as written).", at: node)
            return nil
        }
        let data: String = if case .scalar = dataNode, let text = reader.text(dataNode, at: "\(path).data") {
            text
        } else {
            String(decoding: reader.json(dataNode).jsonData, as: UTF8.self)
        }
        let event = keys["event"].flatMap { singleLine($0, at: "\(path).event") }
        let id = keys["id"].flatMap { singleLine($0, at: "\(path).id") }
        let retry = keys["retry"].flatMap { reader.int($0, at: "\(path).retry", in: 0...86_400_000) }
        guard reader.problems.count == problemsBefore else { return nil }
        return (StreamScript.Item(offset: at, event: SSEEvent(event: event, id: id, data: data, retry: retry)), [data], node)
    }

    /// An event whose data is JSON (an object or array) escapes filled values as in a JSON string; other data
    /// continues a value's further lines on `data:` lines of their own.
    static func escaping(ofData data: [String]) -> ResponseTemplate.ChunkTemplate.Escaping {
        let json = !data.isEmpty && data.allSatisfy { line in
            guard let value = try? JSONValue(json: Data(line.utf8)) else { return false }
            if case .object = value { return true }
            if case .array = value { return true }
            return false
        }
        return json ? .json : .eventData
    }

    /// An offset as written, a duration with an optional `+`: `200ms`, `+1.5s`.
    static func offset(written text: String) -> Duration? {
        DurationText.parse(text.hasPrefix("+") ? String(text.dropFirst()) : text)
    }

    /// A message's offset (a WebSocket's or a gRPC call's): `node`'s, or the previous message's when none is written;
    /// one before the previous message's is a problem, since messages are listed in the order they are sent.
    mutating func messageOffset(_ node: Node?, after previous: Duration, at place: String) -> Duration {
        guard let node, let given = offset(node, at: "\(place).at") else { return previous }
        if given < previous {
            reader.report("\(place).at is \(DurationText.format(given)), before the previous message's \(DurationText.format(previous)); list messages in the order they are sent.", at: node)
        }
        return given
    }

    /// An offset from the stream's opening: `200ms`, `+1.5s`.
    mutating func offset(_ node: Node, at path: String) -> Duration? {
        guard let text = node.scalar?.string, let duration = Self.offset(written: text) else {
            reader.report("\(path) must be an offset from the stream's opening such as '+200ms', '1.5s' or '2m', got \(reader.describe(node)).", at: node)
            return nil
        }
        return duration
    }

    /// An event's type or id: text on one line, since a line break would end the field.
    private mutating func singleLine(_ node: Node, at path: String) -> String? {
        guard let text = reader.text(node, at: path) else { return nil }
        guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            reader.report("\(path) holds a line break, which would end the field; write it on one line.", at: node)
            return nil
        }
        return text
    }

    /// The items of a stream fixture: `.jsonl` (one `{"at": …, "data": …}` per line) or `.sse` (a transcript whose
    /// events carry their offsets in a `: at +200ms` comment). Problems are placed at the fixture's own lines.
    private mutating func streamFixture(_ name: String, at path: String, node: Node) -> [ParsedChunk] {
        let kind = (name as NSString).pathExtension
        guard kind == "jsonl" || kind == "sse" else {
            reader.report("\(path) is '\(name)'; a stream's fixture is a .jsonl file (an event per line) or an .sse transcript.", at: node)
            return []
        }
        guard let data = fixture(name, at: path, node: node) else { return [] }
        let place = ((reader.file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
        guard let text = String(data: data, encoding: .utf8) else {
            reader.report("\(path) '\(name)' is not UTF-8 text.", at: node)
            return []
        }
        return kind == "jsonl" ? jsonLines(text, file: place, fixtureNode: node) : transcript(text, file: place, fixtureNode: node)
    }

    /// A fixture's lines: plain events read on every core, a slice of the file each (a big fixture's load is mostly
    /// theirs); then, in order, each offset set and checked, and every other line read through YAML, problems placed.
    private mutating func jsonLines(_ text: String, file: String, fixtureNode: Node) -> [ParsedChunk] {
        var text = text
        let (lines, slices) = text.withUTF8 { bytes -> ([(number: Int, bytes: Range<Int>)], [[PlainEvent?]]) in
            let lines = Self.lines(of: bytes)
            let slice = max(1_000, lines.count / 16)
            let slices = stride(from: 0, to: lines.count, by: slice).map { $0..<min($0 + slice, lines.count) }
            return (lines, ConcurrentMap.map(slices) { slice in
                lines[slice].map { Self.plainEvent(UnsafeBufferPointer(rebasing: bytes[$0.bytes])) }
            })
        }
        var items: [ParsedChunk] = []
        items.reserveCapacity(lines.count)
        // The last event's offset, kept here: reading it from `items.last` copies the whole chunk each time.
        var previous = Duration.zero
        for (line, plain) in zip(lines, slices.joined()) {
            if let plain, (plain.at ?? previous) >= previous {
                previous = plain.at ?? previous
                items.append((StreamScript.Item(offset: previous, bytes: plain.bytes), plain.templateData.map { [$0] } ?? [], fixtureNode))
                continue
            }
            let outer = reader
            reader = NodeReader(file: file)
            let written = text.utf8.withContiguousStorageIfAvailable { String(decoding: UnsafeBufferPointer(rebasing: $0[line.bytes]), as: UTF8.self) } ?? ""
            if let node = try? Yams.compose(yaml: written), written.trimmingCharacters(in: .whitespaces).hasPrefix("{") {
                if var parsed = parseStreamItem(node, at: "event", after: previous) {
                    parsed.node = fixtureNode
                    previous = parsed.item.offset
                    items.append(parsed)
                }
            } else {
                reader.report("line \(line.number) is not a JSON object; write one event per line, such as {\"at\": \"+200ms\", \"data\": \"Hel\"}.", line: 1, column: nil)
            }
            let found = reader.problems
            reader = outer
            for problem in found {
                reader.report(problem.message, inFile: file, line: line.number, column: problem.column)
            }
        }
        return items
    }

    /// The lines of `bytes` that hold more than whitespace, with their 1-based numbers; found by byte (grapheme
    /// breaking over a big fixture cost a third of its load).
    private static func lines(of bytes: UnsafeBufferPointer<UInt8>) -> [(number: Int, bytes: Range<Int>)] {
        var lines: [(number: Int, bytes: Range<Int>)] = []
        guard let base = bytes.baseAddress else { return lines }
        var start = 0, number = 0
        while start < bytes.count {
            number += 1
            let end = if let found = memchr(base + start, 0x0A, bytes.count - start) {
                UnsafeRawPointer(found) - UnsafeRawPointer(base)
            } else {
                bytes.count
            }
            if bytes[start..<end].contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }) {
                lines.append((number, start..<end))
            }
            start = end + 1
        }
        return lines
    }

    /// A plain event line as read: its offset when written (else the previous event's), its bytes on the wire, and
    /// its data when those bytes hold a `{{` (a template's chunk, whose escaping its data chooses; no other chunk's
    /// data is read again, and a big fixture's load was a tenth keeping it).
    struct PlainEvent {
        var at: Duration?
        var bytes: Data
        var templateData: String?
    }

    /// A fixture line that is a plain event, read in one pass over its bytes without YAML: `{"at": "+1ms", "event":
    /// "token", "data": {…}}` with text `at`, `event` and `id`, `data` text or an object or array, an integer `retry`
    /// in range; its data is written as `JSONValue.jsonData` writes it, mostly copied as read (``JSONLineScanner``).
    /// Big fixtures are mostly such lines, and reading each as a YAML document cost 99 % of a fixture's load (15 MB
    /// took 25 s). Nil for anything else, which the YAML reading takes, with its problems placed; what it makes of a
    /// plain event is the same item, byte for byte (`StreamRouteTests`).
    static func plainEvent(_ line: UnsafeBufferPointer<UInt8>) -> PlainEvent? {
        var scanner = JSONLineScanner(bytes: line)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var at: Duration?, event: String?, id: String?, data: [UInt8]?, retry: Int?
        repeat {
            guard let key = scanner.text(), scanner.take(UInt8(ascii: ":")) else { return nil }
            switch key {
            case "at" where at == nil:
                guard let text = scanner.text(), let offset = Self.offset(written: text) else { return nil }
                at = offset
            case "event" where event == nil, "id" where id == nil:
                guard let text = scanner.text(), !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return nil }
                if key == "event" { event = text } else { id = text }
            case "retry" where retry == nil:
                guard let value = scanner.integer(), (0...86_400_000).contains(value) else { return nil }
                retry = value
            case "data" where data == nil:
                if scanner.peek() == UInt8(ascii: "\"") {
                    data = scanner.textBytes()
                    guard data != nil else { return nil }
                } else if scanner.peek() == UInt8(ascii: "{") || scanner.peek() == UInt8(ascii: "[") {
                    var canonical: [UInt8] = []
                    canonical.reserveCapacity(line.count)
                    guard scanner.canonicalValue(into: &canonical) else { return nil }
                    data = canonical
                } else {
                    return nil
                }
            default:
                // `text`, another key, or a key twice: the YAML reading says what is wrong.
                return nil
            }
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "}")), scanner.atEnd, let data else { return nil }
        let bytes = data.withUnsafeBufferPointer { SSEEvent.bytes(event: event, id: id, retry: retry, data: $0) }
        let templated = bytes.withUnsafeBytes { bytes in
            bytes.indices.dropLast().contains { bytes[$0] == UInt8(ascii: "{") && bytes[$0 + 1] == UInt8(ascii: "{") }
        }
        return PlainEvent(at: at, bytes: bytes, templateData: templated ? String(decoding: data, as: UTF8.self) : nil)
    }

    private mutating func transcript(_ text: String, file: String, fixtureNode: Node) -> [ParsedChunk] {
        var items: [ParsedChunk] = []
        var block: [Substring] = []
        var offset = Duration.zero
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if line.hasPrefix(": at ") {
                let written = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
                if let parsed = Self.offset(written: written) {
                    if parsed < offset {
                        reader.report("': at \(written)' is before the previous event's \(DurationText.format(offset)); list events in the order they arrive.", inFile: file, line: index + 1)
                    }
                    offset = parsed
                } else {
                    reader.report("': at \(written)' is not an offset such as '+200ms' or '1.5s'.", inFile: file, line: index + 1)
                }
                continue
            }
            if line.isEmpty {
                guard !block.isEmpty else { continue }
                let data = block.filter { $0.hasPrefix("data:") }.map { String($0.dropFirst(5).drop { $0 == " " }) }
                items.append((StreamScript.Item(offset: offset, bytes: Data((block.joined(separator: "\n") + "\n\n").utf8)),
                              data, fixtureNode))
                block = []
            } else {
                block.append(line)
            }
        }
        if !block.isEmpty {
            reader.report("the last event has no blank line after it, so a client would never dispatch it; end the file with an empty line (or write it as 'text' in the scenario to send it cut off).", inFile: file, line: lines.count)
        }
        return items
    }
}

private extension JSONValue {
    var isObjectOrArray: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
