import Yams

/// The YAML 1.1 types of untagged plain scalars (`true`, `12`, `1.5`, `~`, `2026-11-01`), decided by hand.
///
/// Yams's default resolver decides them with seven `NSRegularExpression`s, compiled when first used and run on every
/// scalar and key: a sixth of reading the shipped scenarios at start-up (perf, BENCHMARKS.md). Scenario files are
/// composed with Yams's resolver that has no rules, and this gives each plain scalar the tag the default one would:
/// the rules below are Yams's own patterns (`Resolver.Rule.bool`, `.int`, …), transcribed, in Yams's order, and a
/// test compares both on generated text.
enum ImplicitTags {
    /// `node` with every untagged plain scalar tagged as Yams's default resolver would tag it.
    static func resolve(_ node: Node) -> Node {
        switch node {
        case .scalar(var scalar):
            // "" is an untagged plain scalar not yet resolved; quoted and explicitly tagged ones keep their tag.
            guard scalar.tag.rawValue == Tag.Name.implicit.rawValue else { return node }
            scalar.tag = Tag(tag(of: scalar.string), .basic, .default)
            return .scalar(scalar)
        case .mapping(var mapping):
            for index in mapping.indices {
                mapping[index] = (resolve(mapping[index].key), resolve(mapping[index].value))
            }
            return .mapping(mapping)
        case .sequence(var sequence):
            for index in sequence.indices { sequence[index] = resolve(sequence[index]) }
            return .sequence(sequence)
        case .alias:
            return node
        }
    }

    /// The tag Yams's default resolver gives the plain scalar `text`: the first rule of bool, int, float, merge,
    /// null, timestamp and value that matches it whole, else str.
    static func tag(of text: String) -> Tag.Name {
        let bytes = Array(text.utf8)
        if bools.contains(text) { return .bool }
        if isInt(bytes) { return .int }
        if isFloat(bytes) { return .float }
        if text == "<<" { return .merge }
        if nulls.contains(text) { return .null }
        if isTimestamp(bytes) { return .timestamp }
        if text == "=" { return .value }
        return .str
    }

    private static let bools: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ]

    /// The empty string too: `key:` with nothing after it.
    private static let nulls: Set<String> = ["", "~", "null", "Null", "NULL"]

    // MARK: Numbers

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`
    private static func isInt(_ bytes: [UInt8]) -> Bool {
        var scan = Scan(bytes)
        scan.sign()
        let body = scan
        if scan.take("0"), scan.take("b"), scan.many(isBinary), scan.atEnd { return true }
        scan = body
        if scan.take("0") {
            _ = scan.take("o")
            if scan.many(isOctal), scan.atEnd { return true }
        }
        scan = body
        if scan.take("0"), scan.atEnd { return true }
        scan = body
        if scan.one(isNonZeroDigit) {
            _ = scan.many(isDigitOrUnderscore)
            if scan.atEnd { return true }
            if scan.sexagesimalParts(), scan.atEnd { return true }
        }
        scan = body
        return scan.take("0") && scan.take("x") && scan.many(isHex) && scan.atEnd
    }

    /// `[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)? | \.[0-9_]+(?:[eE][-+][0-9]+)?
    /// | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)`
    private static func isFloat(_ bytes: [UInt8]) -> Bool {
        var scan = Scan(bytes)
        scan.sign()
        let body = scan
        // Decimal, with optional fraction and exponent.
        if scan.one(isDigit) {
            _ = scan.many(isDigitOrUnderscore)
            if scan.take(".") { _ = scan.many(isDigitOrUnderscore) }
            var exponent = scan
            if exponent.one(isExponentMark) {
                exponent.sign()
                if exponent.many(isDigit), exponent.atEnd { return true }
            }
            if scan.atEnd { return true }
        }
        // Sexagesimal with a fraction.
        scan = body
        if scan.one(isDigit) {
            _ = scan.many(isDigitOrUnderscore)
            if scan.sexagesimalParts(), scan.take(".") {
                _ = scan.many(isDigitOrUnderscore)
                if scan.atEnd { return true }
            }
        }
        // Infinity, signed or not.
        scan = body
        if scan.take("."), scan.word(["inf", "Inf", "INF"]) { return true }
        // A leading-dot fraction and not-a-number take no sign.
        scan = Scan(bytes)
        if scan.take(".") {
            let afterDot = scan
            if scan.word(["nan", "NaN", "NAN"]) { return true }
            scan = afterDot
            if scan.many(isDigitOrUnderscore) {
                if scan.atEnd { return true }
                if scan.one(isExponentMark), scan.one(isSign), scan.many(isDigit), scan.atEnd { return true }
            }
        }
        return false
    }

    // MARK: Timestamps

    /// `[0-9]{4}-[0-9]{2}-[0-9]{2}` or `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}
    /// (?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?`
    private static func isTimestamp(_ bytes: [UInt8]) -> Bool {
        var scan = Scan(bytes)
        guard scan.digits(4...4), scan.take("-") else { return false }
        let afterYear = scan
        if scan.digits(2...2), scan.take("-"), scan.digits(2...2), scan.atEnd { return true }
        scan = afterYear
        guard scan.digits(1...2), scan.take("-"), scan.digits(1...2) else { return false }
        if !scan.one({ $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) {
            guard scan.many(isBlank) else { return false }
        }
        guard scan.digits(1...2), scan.take(":"), scan.digits(2...2), scan.take(":"), scan.digits(2...2) else { return false }
        if scan.take(".") { _ = scan.many(isDigit) }
        if scan.atEnd { return true }
        _ = scan.many(isBlank)
        if scan.take("Z") { return scan.atEnd }
        guard scan.one(isSign), scan.digits(1...2) else { return false }
        if scan.atEnd { return true }
        return scan.take(":") && scan.digits(2...2) && scan.atEnd
    }

    // MARK: Characters

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isNonZeroDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) }
    private static func isDigitOrUnderscore(_ byte: UInt8) -> Bool { isDigit(byte) || byte == UInt8(ascii: "_") }
    private static func isBinary(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") || byte == UInt8(ascii: "_") }
    private static func isOctal(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) || byte == UInt8(ascii: "_") }
    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    private static func isSign(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") }
    private static func isExponentMark(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigitOrUnderscore(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// A cursor over a scalar's bytes; each step moves it only when it matches.
    private struct Scan {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func one(_ test: (UInt8) -> Bool) -> Bool {
            guard position < bytes.count, test(bytes[position]) else { return false }
            position += 1
            return true
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool { one { $0 == UInt8(ascii: character) } }

        /// One or more.
        mutating func many(_ test: (UInt8) -> Bool) -> Bool {
            let start = position
            while one(test) {}
            return position > start
        }

        /// An optional `+` or `-`.
        mutating func sign() { _ = one(ImplicitTags.isSign) }

        /// Between `count.lowerBound` and `count.upperBound` digits, as many as there are.
        mutating func digits(_ count: ClosedRange<Int>) -> Bool {
            let start = position
            while position - start < count.upperBound, one(ImplicitTags.isDigit) {}
            return count.contains(position - start)
        }

        mutating func word(_ words: [String]) -> Bool {
            let rest = String(decoding: bytes[position...], as: UTF8.self)
            guard words.contains(rest) else { return false }
            position = bytes.count
            return true
        }

        /// `(?::[0-5]?[0-9])+`
        mutating func sexagesimalParts() -> Bool {
            var parts = 0
            while true {
                let before = position
                guard take(":") else { break }
                // [0-5]?[0-9]: two digits when the first is 0–5 and a digit follows, else one.
                if position + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "5")).contains(bytes[position]),
                   ImplicitTags.isDigit(bytes[position + 1]) {
                    position += 2
                } else if !one(ImplicitTags.isDigit) {
                    position = before
                    break
                }
                parts += 1
            }
            return parts > 0
        }
    }
}
