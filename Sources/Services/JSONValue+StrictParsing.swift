public import Foundation

/// Why bytes are not JSON as RFC 8259 writes it, and where: 1-based line and column (in characters).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, in a sentence without the place.
    public var problem: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, counted in characters.
    public var column: Int
    /// Whether the problem is a number no `Int` or `Double` holds exactly, which no lenient reading may change.
    public var isInexactNumber = false

    /// A problem at a place.
    public init(problem: String, line: Int, column: Int) {
        self.problem = problem
        self.line = line
        self.column = column
    }

    public var description: String { "\(problem) (line \(line), column \(column))" }
}

extension JSONValue {
    /// Parses bytes that must be JSON exactly as RFC 8259 writes it: no trailing commas, comments, single quotes,
    /// `NaN`, leading zeros or duplicate keys, one value with only whitespace around it, valid UTF-8.
    ///
    /// Written here because Foundation's parsers accept a trailing comma and say only "around character N";
    /// a control API that documents strict JSON must refuse what it documents as refused, and say where.
    /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
    public init(strictJSON data: Data) throws(JSONSyntaxError) {
        var parser = StrictJSONParser(bytes: [UInt8](data))
        self = try parser.document()
    }
}

/// A recursive-descent parser of RFC 8259's grammar over UTF-8 bytes.
private struct StrictJSONParser {
    let bytes: [UInt8]
    var index = 0
    /// Arrays and objects open around the current value.
    var depth = 0
    /// The deepest nesting read, as Foundation's parser bounds it: the parser recurses, so its stack is bounded too.
    static let depthLimit = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try self.value()
        skipWhitespace()
        guard index == bytes.count else { throw failure("expected the end of the body after a complete JSON value, found \(found)") }
        return value
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw failure("expected a value, found the end of the body") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("expected a value (an object, array, string, number, true, false or null), found \(found)")
        }
    }

    /// Counts one more level of nesting, refusing to go past ``depthLimit``.
    private mutating func enterNesting() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.depthLimit else { throw failure("arrays and objects nest more than \(Self.depthLimit) deep here") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enterNesting()
        defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw failure(peek(UInt8(ascii: "}")) ? "expected a member after the comma; JSON has no trailing commas" : "expected a member name in double quotes, found \(found)")
            }
            let start = index
            let key = try string()
            guard members[key] == nil else { throw failure("the member '\(key)' appears twice in this object", at: start) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "a ':' after the member name")
            skipWhitespace()
            members[key] = try value()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}' after the member's value")
            return .object(members)
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enterNesting()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw failure("expected a value after the comma; JSON has no trailing commas") }
            elements.append(try value())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']' after the array's element")
            return .array(elements)
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let opening = index
        index += 1
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("the string that starts here has no closing quote", at: opening) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw failure("the string that starts here is not valid UTF-8", at: opening)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("the string that starts here has no closing quote", at: opening) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"): text.append(contentsOf: try unicodeEscape())
                default: throw failure("'\\\(Character(Unicode.Scalar(escape)))' is not an escape JSON knows (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: index - 2)
                }
            case 0..<0x20:
                throw failure("a control character (U+\(String(format: "%04X", byte))) must be escaped inside a string")
            default:
                text.append(byte)
                index += 1
            }
        }
    }

    /// The UTF-8 of a `\uXXXX` escape just read past its `u`, joining a surrogate pair.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        let start = index - 2
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate must be followed by a \\u low surrogate", at: start)
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate must be followed by a low surrogate", at: start) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw failure("a low surrogate without a high surrogate before it", at: start)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("\\u escape names no character", at: start) }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else { throw failure("expected four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw failure("expected a digit in the number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw failure("a number may not start with a leading zero", at: start) }
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        var whole = true
        var hasExponent = false
        if peek(UInt8(ascii: ".")) {
            whole = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw failure("expected a digit after the decimal point") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            whole = false
            hasExponent = true
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw failure("expected a digit in the exponent") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw failure("the number \(text) is too large", at: start) }
        // Never another number than the one sent: one a 64-bit float cannot hold is refused, naming what it would be.
        guard JSONNumberText.isExact(double, from: bytes[start..<index], hasExponent: hasExponent) else {
            let why = whole ? "past the 64-bit integers" : double == 0 ? "too small for a 64-bit float" : "more precise than a 64-bit float"
            throw failure("the number \(text) cannot be kept exactly: it would read \(double) (\(why)); send it as a string to keep every digit", at: start, inexactNumber: true)
        }
        // A whole number written with a point or an exponent (4.0, 1e3) is the integer JSON Schema says it is, as
        // Foundation's decoder read it before: an integer field takes it.
        if let integer = Int(exactly: double) { return .int(integer) }
        return .double(double)
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("expected a value, found \(found)")
        }
        index += expected.count
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard peek(byte) else { throw failure("expected \(what), found \(found)") }
        index += 1
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// What stands at the current place, for messages: a quoted character, a comment's opening, or the end.
    private var found: String {
        guard index < bytes.count else { return "the end of the body" }
        if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, [UInt8(ascii: "/"), UInt8(ascii: "*")].contains(bytes[index + 1]) {
            return "a comment (JSON has none)"
        }
        let rest = String(decoding: bytes[index..<min(bytes.count, index + 4)], as: UTF8.self)
        guard let character = rest.first else { return "a byte that is not UTF-8" }
        if let scalar = character.unicodeScalars.first, let name = VisibleText.name(of: scalar) {
            return scalar == "\u{FEFF}" && index == 0 ? "\(name) (send the body without one)" : name
        }
        return "'\(character)'"
    }

    private func failure(_ problem: String, at offset: Int? = nil, inexactNumber: Bool = false) -> JSONSyntaxError {
        let offset = min(offset ?? index, bytes.count)
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = before.count(where: { $0 == 0x0A }) + 1
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        var error = JSONSyntaxError(problem: problem, line: line, column: column)
        error.isInexactNumber = inexactNumber
        return error
    }
}
