import Foundation
public import Services

/// A condition of a property in `properties.yaml`: `/unreadCount >= 0`, `count(/items) <= 4`,
/// `$store/readItems != null`, `/loading == false`, or a lone operand that must be `true` (`/ready`).
///
/// An operand is a JSON pointer into the Model's state (`/items/0/title`, `""` is not allowed: write `/`), into the
/// key-value store (`$store/KEY/…`) or into the journal of the session's requests (`$journal/0/status`, an array,
/// oldest first); `count(OPERAND)` (the members of an array, object or string); or a JSON literal (`0`, `"text"`,
/// `true`, `null`). A pointer to nothing reads as `null`. Written by hand because it is one line of six operators;
/// a general expression language would invite checks no one can read in a failure report.
public struct PropertyCondition: Sendable, Hashable, CustomStringConvertible {
    /// Where an operand's value comes from.
    public indirect enum Operand: Sendable, Hashable {
        /// A JSON pointer into the state.
        case state(String)
        /// A key of the store, then a pointer into its value.
        case store(key: String, pointer: String)
        /// A pointer into the journal, an array of the session's requests.
        case journal(String)
        /// The number of members of an array, object or string; 0 for anything else.
        case count(Operand)
        /// A fixed value.
        case literal(JSONValue)
    }

    /// The comparisons a condition may make.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        /// `==`: equal JSON values (numbers by value).
        case equal = "=="
        /// `!=`: different JSON values.
        case notEqual = "!="
        /// `<=`: numbers, or strings in code-point order.
        case lessOrEqual = "<="
        /// `>=`.
        case greaterOrEqual = ">="
        /// `<`.
        case less = "<"
        /// `>`.
        case greater = ">"
    }

    /// The left side.
    public var left: Operand
    /// The comparison; `==` against `true` for a lone operand.
    public var comparison: Comparison
    /// The right side.
    public var right: Operand
    /// The text it was read from, for reports.
    public var description: String

    /// Whether it reads the store or the journal, which cost a request each to fetch.
    public var readsStore: Bool { left.readsStore || right.readsStore }
    /// Whether it reads the journal.
    public var readsJournal: Bool { left.readsJournal || right.readsJournal }

    /// Reads `text`; the error says what is wrong, for a problem at the condition's place.
    public init(parsing text: String) throws(PropertyConditionError) {
        var scanner = Scanner(text: Substring(text))
        scanner.skipSpaces()
        left = try scanner.operand()
        scanner.skipSpaces()
        if scanner.isAtEnd {
            comparison = .equal
            right = .literal(.bool(true))
        } else {
            guard let found = Comparison.allCases.first(where: { scanner.rest.hasPrefix($0.rawValue) }) else {
                throw PropertyConditionError("expected a comparison (\(Comparison.allCases.map(\.rawValue).joined(separator: " "))) "
                    + "after the first operand, at '\(scanner.rest)'")
            }
            scanner.rest = scanner.rest.dropFirst(found.rawValue.count)
            comparison = found
            scanner.skipSpaces()
            right = try scanner.operand()
            scanner.skipSpaces()
            guard scanner.isAtEnd else { throw PropertyConditionError("unexpected '\(scanner.rest)' after the condition") }
        }
        description = text
    }

    /// Whether the condition holds for `state`, `store` (an object of keys) and `journal` (an array).
    public func holds(state: JSONValue, store: JSONValue, journal: JSONValue) -> Bool {
        let a = left.value(state: state, store: store, journal: journal)
        let b = right.value(state: state, store: store, journal: journal)
        switch comparison {
        case .equal: return a.firstMismatch(with: b) == nil
        case .notEqual: return a.firstMismatch(with: b) != nil
        case .less: return Self.order(a, b).map { $0 < 0 } ?? false
        case .lessOrEqual: return Self.order(a, b).map { $0 <= 0 } ?? false
        case .greater: return Self.order(a, b).map { $0 > 0 } ?? false
        case .greaterOrEqual: return Self.order(a, b).map { $0 >= 0 } ?? false
        }
    }

    /// The values of both sides, for a report: `/unread is -1`.
    public func explain(state: JSONValue, store: JSONValue, journal: JSONValue) -> String {
        [left, right].compactMap { operand -> String? in
            if case .literal = operand { return nil }
            return "\(operand) is \(String(decoding: operand.value(state: state, store: store, journal: journal).jsonData, as: UTF8.self))"
        }.joined(separator: ", ")
    }

    /// Numbers by value, strings in code-point order; nil when the two cannot be ordered.
    private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        default:
            guard let x = a.number, let y = b.number else { return nil }
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }
}

/// Why a property's condition cannot be read.
public struct PropertyConditionError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension PropertyCondition.Operand: CustomStringConvertible {
    public var description: String {
        switch self {
        case .state(let pointer): pointer
        case .store(let key, let pointer): "$store/\(JSONValue.pointerToken(key))\(pointer)"
        case .journal(let pointer): "$journal\(pointer)"
        case .count(let operand): "count(\(operand))"
        case .literal(let value): String(decoding: value.jsonData, as: UTF8.self)
        }
    }

    var readsStore: Bool {
        switch self {
        case .store: true
        case .count(let inner): inner.readsStore
        default: false
        }
    }

    var readsJournal: Bool {
        switch self {
        case .journal: true
        case .count(let inner): inner.readsJournal
        default: false
        }
    }

    func value(state: JSONValue, store: JSONValue, journal: JSONValue) -> JSONValue {
        switch self {
        case .state(let pointer): return pointer == "/" ? state : state.value(at: pointer) ?? .null
        case .store(let key, let pointer):
            guard case .object(let keys) = store, let value = keys[key] else { return .null }
            return pointer.isEmpty ? value : value.value(at: pointer) ?? .null
        case .journal(let pointer): return pointer.isEmpty ? journal : journal.value(at: pointer) ?? .null
        case .literal(let value): return value
        case .count(let inner):
            switch inner.value(state: state, store: store, journal: journal) {
            case .array(let items): return .int(items.count)
            case .object(let members): return .int(members.count)
            case .string(let text): return .int(text.count)
            default: return .int(0)
            }
        }
    }
}

extension JSONValue {
    /// The value of a number, as a Double.
    fileprivate var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}

/// Reads operands left to right.
private struct Scanner {
    var rest: Substring

    init(text: Substring) { rest = text }

    var isAtEnd: Bool { rest.isEmpty }

    mutating func skipSpaces() { rest = rest.drop { $0 == " " || $0 == "\t" } }

    /// A pointer, `$store…`, `$journal…`, `count(…)` or a JSON literal.
    mutating func operand() throws(PropertyConditionError) -> PropertyCondition.Operand {
        if rest.hasPrefix("count(") {
            rest = rest.dropFirst("count(".count)
            skipSpaces()
            let inner = try operand()
            skipSpaces()
            guard rest.first == ")" else { throw PropertyConditionError("count( is not closed by ')' at '\(rest)'") }
            rest = rest.dropFirst()
            return .count(inner)
        }
        if rest.hasPrefix("/") { return .state(word()) }
        if rest.hasPrefix("$store") {
            rest = rest.dropFirst("$store".count)
            let pointer = word()
            let tokens = pointer.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard pointer.hasPrefix("/"), let key = tokens.first, !key.isEmpty else {
                throw PropertyConditionError("$store must be followed by /KEY (then a pointer into its value), such as $store/readItems")
            }
            return .store(key: JSONValue.name(ofPointerToken: key), pointer: tokens.dropFirst().first.map { "/" + $0 } ?? "")
        }
        if rest.hasPrefix("$journal") {
            rest = rest.dropFirst("$journal".count)
            return .journal(word())
        }
        if rest.hasPrefix("$") {
            throw PropertyConditionError("'\(word())' is not an operand; $store/KEY and $journal are")
        }
        return .literal(try literal())
    }

    /// Up to a space, a comparison or `)`.
    private mutating func word() -> String {
        let end = rest.firstIndex { " \t)=!<>".contains($0) } ?? rest.endIndex
        defer { rest = rest[end...] }
        return String(rest[..<end])
    }

    /// A JSON literal: a quoted string (JSON escapes), a number, true, false or null.
    private mutating func literal() throws(PropertyConditionError) -> JSONValue {
        if rest.first == "\"" {
            var escaped = false
            var index = rest.index(after: rest.startIndex)
            while index < rest.endIndex, escaped || rest[index] != "\"" {
                escaped = !escaped && rest[index] == "\\"
                index = rest.index(after: index)
            }
            guard index < rest.endIndex else { throw PropertyConditionError("the string \(rest) is not closed by '\"'") }
            let text = rest[...index]
            rest = rest[rest.index(after: index)...]
            guard let value = try? JSONValue(json: Data(text.utf8)) else { throw PropertyConditionError("\(text) is not a JSON string") }
            return value
        }
        let text = word()
        if text.isEmpty, rest.isEmpty { throw PropertyConditionError("the condition ends where an operand should be") }
        guard !text.isEmpty, let value = try? JSONValue(json: Data(text.utf8)) else {
            throw PropertyConditionError("'\(text.isEmpty ? String(rest) : text)' is not an operand: write a pointer into the state (/items), "
                + "$store/KEY, $journal, count(…), or a JSON value (0, \"text\", true, null)")
        }
        return value
    }
}
