/// One pass over a fixture line's bytes that reads JSON strictly (RFC 8259) and writes values in scenariod's canonical
/// form — compact, an object's keys in UTF-8 byte order, JSONEncoder's escapes: the bytes `JSONValue.jsonData` writes —
/// without building a `JSONValue`, so a big fixture's data is mostly copied as written.
///
/// Written by hand because the cost of a big fixture was that building (a dictionary per line) and JSONEncoder
/// writing it again; no library here writes JSONEncoder's bytes from JSON bytes. It takes integers of at most 18
/// digits and no other numbers (YAML reads `1.0`, `-0` and `1e3` its own way) and keys without escapes; anything it
/// does not take is nil, and the caller reads the line the slow way, which places problems.
struct JSONLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The deepest nesting the strict parser reads (`JSONValue(strictJSON:)`).
    private static let depthLimit = 512

    /// A scanner at the start of `bytes`, which must outlive it.
    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether only whitespace is left.
    var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return index == bytes.count
        }
    }

    /// Takes `byte` after any whitespace, if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// The byte after any whitespace, not taken.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// A string, its escapes read.
    mutating func text() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        // Most strings have no escape: made from their bytes at once.
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
        }
        index = start
        var decoded: [UInt8] = []
        guard readString(into: &decoded, canonical: false) else { return nil }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// A string's UTF-8, its escapes read.
    mutating func textBytes() -> [UInt8]? {
        var decoded: [UInt8] = []
        guard take(UInt8(ascii: "\"")), readString(into: &decoded, canonical: false) else { return nil }
        return decoded
    }

    /// A non-negative integer.
    mutating func integer() -> Int? {
        skipWhitespace()
        guard peek() != UInt8(ascii: "-") else { return nil }
        let start = index
        guard readInteger() else { return nil }
        return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// Writes the next value in canonical form to `out`.
    mutating func canonicalValue(into out: inout [UInt8]) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(into: &out)
        case UInt8(ascii: "["): return array(into: &out)
        case UInt8(ascii: "\""):
            index += 1
            out.append(UInt8(ascii: "\""))
            return readString(into: &out, canonical: true)
        case UInt8(ascii: "t"): return literal("true", into: &out)
        case UInt8(ascii: "f"): return literal("false", into: &out)
        case UInt8(ascii: "n"): return literal("null", into: &out)
        default:
            let start = index
            guard readInteger() else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            return true
        }
    }

    private mutating func object(into out: inout [UInt8]) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.depthLimit else { return false }
        index += 1
        let start = out.count
        out.append(UInt8(ascii: "{"))
        // Where each member's key and whole member sit in `out`, to put them in order afterwards.
        var members: [(key: Range<Int>, member: Range<Int>)] = []
        members.reserveCapacity(8)
        var plainKeys = true
        if take(UInt8(ascii: "}")) {
            out.append(UInt8(ascii: "}"))
            return true
        }
        repeat {
            if !members.isEmpty { out.append(UInt8(ascii: ",")) }
            let memberStart = out.count
            guard take(UInt8(ascii: "\"")) else { return false }
            out.append(UInt8(ascii: "\""))
            let keyStart = out.count
            guard readKey(into: &out) else { return false }
            let key = keyStart..<out.count
            plainKeys = plainKeys && !out[key].contains(where: { $0 >= 0x80 })
            out.append(UInt8(ascii: "\""))
            guard take(UInt8(ascii: ":")) else { return false }
            out.append(UInt8(ascii: ":"))
            guard canonicalValue(into: &out) else { return false }
            members.append((key, memberStart..<out.count))
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return false }
        out.append(UInt8(ascii: "}"))
        // Keys Swift holds equal though their bytes differ (é written precomposed and decomposed) are one key twice.
        if !plainKeys, Set(members.map { String(decoding: out[$0.key], as: UTF8.self) }).count < members.count { return false }
        return order(members, of: start, in: &out)
    }

    /// Puts an object's members (written from `start`) in the order of their keys' bytes; false when two keys are equal.
    private func order(_ members: [(key: Range<Int>, member: Range<Int>)], of start: Int, in out: inout [UInt8]) -> Bool {
        func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool { out[a].lexicographicallyPrecedes(out[b]) }
        var sorted = true
        for (previous, next) in zip(members, members.dropFirst()) {
            if out[previous.key].elementsEqual(out[next.key]) { return false }
            if !precedes(previous.key, next.key) { sorted = false }
        }
        if sorted { return true }
        let ordered = members.sorted { precedes($0.key, $1.key) }
        var rewritten: [UInt8] = [UInt8(ascii: "{")]
        rewritten.reserveCapacity(out.count - start)
        for (position, member) in ordered.enumerated() {
            if position > 0 { rewritten.append(UInt8(ascii: ",")) }
            rewritten.append(contentsOf: out[member.member])
        }
        rewritten.append(UInt8(ascii: "}"))
        out.replaceSubrange(start..., with: rewritten)
        return true
    }

    private mutating func array(into out: inout [UInt8]) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.depthLimit else { return false }
        index += 1
        out.append(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) {
            out.append(UInt8(ascii: "]"))
            return true
        }
        var first = true
        repeat {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            guard canonicalValue(into: &out) else { return false }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return false }
        out.append(UInt8(ascii: "]"))
        return true
    }

    /// A key's bytes, just after its opening quote, to its closing one; false for a key with an escape (its order
    /// would be its unescaped bytes').
    private mutating func readKey(into out: inout [UInt8]) -> Bool {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return true
            case UInt8(ascii: "\\"), 0..<0x20: return false
            default: index += 1
            }
        }
        return false
    }

    /// A string's content just after its opening quote, through its closing one, to `out`: its characters, or
    /// when `canonical` the string written again as JSONEncoder writes it (closing quote included).
    private mutating func readString(into out: inout [UInt8], canonical: Bool) -> Bool {
        var run = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                index += 1
                if canonical { out.append(UInt8(ascii: "\"")) }
                return true
            }
            if byte < 0x20 { return false }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
            guard let scalar = escape() else { return false }
            if canonical { Self.writeCanonical(scalar, into: &out) } else { out.append(contentsOf: String(Character(scalar)).utf8) }
            run = index
        }
        return false
    }

    /// The character of the escape at `index` (its backslash), read past.
    private mutating func escape() -> Unicode.Scalar? {
        guard index + 1 < bytes.count else { return nil }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            switch unit {
            case 0xD800..<0xDC00:
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00..<0xE000: return nil
            default: return Unicode.Scalar(unit)
            }
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A character as JSONEncoder writes it inside a string: `"` and `\` escaped, the controls with a short escape
    /// where JSON has one and `\u00xx` otherwise, everything else as its UTF-8.
    private static func writeCanonical(_ scalar: Unicode.Scalar, into out: inout [UInt8]) {
        switch scalar {
        case "\"": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case "\\": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case "\u{08}": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case "\u{0C}": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case "\n": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case "\r": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case "\t": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case "\u{00}"..."\u{1F}":
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 0xF)]])
        default: out.append(contentsOf: String(Character(scalar)).utf8)
        }
    }

    /// An integer of at most 18 digits without a leading zero, `-0`, a fraction or an exponent, read past.
    private mutating func readInteger() -> Bool {
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let digits = index - start
        guard (1...18).contains(digits), bytes[start] != UInt8(ascii: "0") || (digits == 1 && !negative) else { return false }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) { return false }
        return true
    }

    private mutating func literal(_ word: StaticString, into out: inout [UInt8]) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return false }
        index += expected.count
        out.append(contentsOf: expected)
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
