import Foundation
import Services

/// Reads a condition's text, left to right, by precedence: `or`, `and`, `not`, a comparison, `+ -`, `*`, a sign, an
/// operand. Every error names the column of the condition where it is.
struct ConditionParser {
    typealias Expression = PropertyCondition.Expression
    private let text: String
    private var rest: Substring
    /// How deep `all`, `any` and `count(…, …)` nest here: `@` means something only inside one.
    private var quantifiers = 0

    init(text: String) {
        self.text = text
        rest = Substring(text)
    }

    /// The whole condition.
    mutating func condition() throws(PropertyConditionError) -> Expression {
        skipSpaces()
        guard !rest.isEmpty else { throw error("the condition is empty: write one such as /count >= 0") }
        let expression = try or()
        skipSpaces()
        guard rest.isEmpty else {
            if rest.first == ")" { throw error("')' closes no '('") }
            throw error("unexpected '\(rest)' after the condition: join two conditions with 'and' or 'or'")
        }
        return expression
    }

    private mutating func or() throws(PropertyConditionError) -> Expression {
        var left = try and()
        while take(keyword: "or") { left = .or(left, try and()) }
        return left
    }

    private mutating func and() throws(PropertyConditionError) -> Expression {
        var left = try not()
        while take(keyword: "and") { left = .and(left, try not()) }
        return left
    }

    private mutating func not() throws(PropertyConditionError) -> Expression {
        take(keyword: "not") ? .not(try not()) : try comparison()
    }

    /// A comparison of two sums, or a lone one that must be `true`.
    private mutating func comparison() throws(PropertyConditionError) -> Expression {
        let left = try sum()
        skipSpaces()
        guard let found = PropertyCondition.Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
            if rest.first == "=" { throw error("'=' is not a comparison: write '=='") }
            return left
        }
        rest = rest.dropFirst(found.rawValue.count)
        skipSpaces()
        if let next = rest.first, "=<>!".contains(next) {
            throw error("'\(found.rawValue)\(next)' is not a comparison; they are \(Self.comparisons)", back: found.rawValue.count)
        }
        return .compare(left, found, try sum())
    }

    private mutating func sum() throws(PropertyConditionError) -> Expression {
        var left = try product()
        while true {
            skipSpaces()
            guard let operation = takeOperator([.add, .subtract]) else { return left }
            left = .arithmetic(left, operation, try product())
        }
    }

    private mutating func product() throws(PropertyConditionError) -> Expression {
        var left = try signed()
        while true {
            skipSpaces()
            guard let operation = takeOperator([.multiply]) else { return left }
            left = .arithmetic(left, operation, try signed())
        }
    }

    private mutating func signed() throws(PropertyConditionError) -> Expression {
        skipSpaces()
        // `-3` is a number; `- /x` and `-(…)` negate.
        if rest.first == "-", let next = rest.dropFirst().first, !next.isNumber {
            rest = rest.dropFirst()
            return .negate(try signed())
        }
        return try operand()
    }

    /// An arithmetic operator with a space (or a bracket) before the next operand: a pointer may hold `-` and `*`.
    private mutating func takeOperator(_ operations: [PropertyCondition.Arithmetic]) -> PropertyCondition.Arithmetic? {
        guard let operation = operations.first(where: { rest.hasPrefix($0.rawValue) }) else { return nil }
        rest = rest.dropFirst()
        return operation
    }

    /// `( … )`, a function, a pointer, `$store…`, `$journal…`, `@…` or a JSON literal.
    private mutating func operand() throws(PropertyConditionError) -> Expression {
        skipSpaces()
        guard let first = rest.first else { throw error("the condition ends where an operand should be") }
        if first == "(" {
            rest = rest.dropFirst()
            let inner = try or()
            try close("(")
            return inner
        }
        for function in ["count", "sum", "all", "any"] where rest.hasPrefix(function + "(") {
            rest = rest.dropFirst(function.count + 1)
            return try call(function)
        }
        if first == "/" { return .state(try pointer(after: "")) }
        if first == "@" {
            guard quantifiers > 0 else { throw error("'@' stands for the member being checked, so it goes inside all(…), any(…) or count(LIST, …)") }
            rest = rest.dropFirst()
            return .member(try pointer(after: "@", optional: true))
        }
        if rest.hasPrefix("$store") {
            rest = rest.dropFirst("$store".count)
            let written = try pointer(after: "$store", optional: true)
            let tokens = written.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = tokens.first, !key.isEmpty, key != "*" else {
                throw error("$store must be followed by /KEY (then a pointer into its value), such as $store/readItems", back: written.count)
            }
            return .store(key: JSONValue.name(ofPointerToken: key), pointer: tokens.dropFirst().first.map { "/" + $0 } ?? "")
        }
        if rest.hasPrefix("$journal") {
            rest = rest.dropFirst("$journal".count)
            return .journal(try pointer(after: "$journal", optional: true))
        }
        if first == "$" { throw error("'\(word())' is not an operand; $store/KEY and $journal are") }
        if first == ")" || first == "," { throw error("an operand is missing before '\(first)'") }
        if let keyword = ["and", "or", "not"].first(where: { startsWord($0) }) {
            throw error("'\(keyword)' where an operand should be")
        }
        return .literal(try literal())
    }

    /// The arguments of `function(`, up to its `)`.
    private mutating func call(_ function: String) throws(PropertyConditionError) -> Expression {
        let start = rest
        let first = try or()
        skipSpaces()
        guard rest.first == "," else {
            try close("\(function)(")
            switch function {
            case "count": return .count(first)
            case "sum": return .sum(first)
            default:
                rest = start
                throw error("\(function)( takes a list and a condition: \(function)(/items/*, @/done == true)")
            }
        }
        guard function != "sum" else { throw error("sum( takes one list: sum(/items/*/price)") }
        rest = rest.dropFirst()
        quantifiers += 1
        let condition = try or()
        quantifiers -= 1
        try close("\(function)(")
        switch function {
        case "count": return .countWhere(first, condition)
        case "all": return .all(first, condition)
        default: return .any(first, condition)
        }
    }

    private mutating func close(_ opener: String) throws(PropertyConditionError) {
        skipSpaces()
        guard rest.first == ")" else {
            throw error(rest.isEmpty ? "\(opener) is not closed by ')'" : "\(opener) is not closed by ')' at '\(rest)'")
        }
        rest = rest.dropFirst()
    }

    /// A JSON pointer (`/a/b/*/c`) up to a space, a comparison, a comma or `)`; `optional` allows none (`$journal`,
    /// `@`). `written` names what came before it, for errors.
    private mutating func pointer(after written: String, optional: Bool = false) throws(PropertyConditionError) -> String {
        let text = word()
        if text.isEmpty, optional { return "" }
        guard text.hasPrefix("/") else {
            throw error("'\(written)\(text)' is not a pointer: after \(written.isEmpty ? "a pointer's start" : written) comes /NAME", back: text.count)
        }
        if text.contains("~"), let bad = text.split(separator: "/").first(where: { Self.badEscape($0) }) {
            throw error("'\(bad)' in \(written)\(text) has a '~' that is neither ~0 (for ~) nor ~1 (for /)", back: text.count)
        }
        return text
    }

    private static func badEscape(_ token: Substring) -> Bool {
        var characters = token.makeIterator()
        while let character = characters.next() {
            guard character == "~" else { continue }
            guard let next = characters.next(), next == "0" || next == "1" else { return true }
        }
        return false
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
            guard index < rest.endIndex else { throw error("the string \(rest) is not closed by '\"'") }
            let quoted = rest[...index]
            guard let value = try? JSONValue(json: Data(quoted.utf8)) else { throw error("\(quoted) is not a JSON string") }
            rest = rest[rest.index(after: index)...]
            return value
        }
        let literal = word()
        guard !literal.isEmpty, let value = try? JSONValue(json: Data(literal.utf8)) else {
            let shown = literal.isEmpty ? String(rest) : literal
            throw error("'\(shown)' is not an operand: write a pointer into the state (/items), $store/KEY, $journal, count(…), "
                + "or a JSON value (0, \"text\", true, null)", back: literal.count)
        }
        if case .array = value { throw error("a list is not a value here; compare its members one by one", back: literal.count) }
        if case .object = value { throw error("an object is not a value here; compare its members one by one", back: literal.count) }
        return value
    }

    /// Up to a space, a comparison, a comma or a bracket.
    private mutating func word() -> String {
        let end = rest.firstIndex { " \t(),=!<>".contains($0) } ?? rest.endIndex
        defer { rest = rest[end...] }
        return String(rest[..<end])
    }

    /// Whether `keyword` starts here as a word of its own.
    private func startsWord(_ keyword: String) -> Bool {
        guard rest.hasPrefix(keyword) else { return false }
        guard let next = rest.dropFirst(keyword.count).first else { return true }
        return next == " " || next == "\t" || next == "("
    }

    /// Takes `keyword` (after spaces) when it starts here as a word of its own.
    private mutating func take(keyword: String) -> Bool {
        skipSpaces()
        guard startsWord(keyword) else { return false }
        rest = rest.dropFirst(keyword.count)
        return true
    }

    private mutating func skipSpaces() { rest = rest.drop { $0 == " " || $0 == "\t" } }

    /// An error at the parser's place, or `back` characters before it (the start of what was just read).
    private func error(_ message: String, back: Int = 0) -> PropertyConditionError {
        let column = text.distance(from: text.startIndex, to: rest.startIndex) - back
        return PropertyConditionError(message, offset: max(0, column))
    }

    private static let comparisons = PropertyCondition.Comparison.allCases.map(\.rawValue).joined(separator: " ")
}
