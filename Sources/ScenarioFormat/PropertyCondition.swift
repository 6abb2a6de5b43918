import Foundation
public import Services

/// A condition of a property in `properties.yaml`: `/unreadCount >= 0`, `count(/items) <= 4`,
/// `$store/readItems != null`, `/loading == false`, a lone operand that must be `true` (`/ready`), or several joined:
/// `all(/bookings/*, @/status != "charged" or @/chargeId != null)`, `sum(/bookings/*/seats) <= /capacity`,
/// `count($journal/*, @/body/bookingId == 7) <= 1`.
///
/// Operands are JSON pointers into the Model's state (`/items/0/title`; `/` is the whole state), into the key-value
/// store (`$store/KEY/…`) or into the journal of the session's requests (`$journal/0/status`, an array, oldest first,
/// each JSON body parsed); `@` and `@/…` inside `all`, `any` and `count(…, …)`, the member being checked; JSON
/// literals (`0`, `"text"`, `true`, `null`). A pointer to nothing reads as `null`. A `*` token in a pointer stands for
/// every member there (`/bookings/*/charges`: each booking's charges, as a list). Numbers take `+ - *` (spaces around
/// them); comparisons `== != < <= > >=`; conditions `and`, `or`, `not` and parentheses. Functions: `count(X)` (the
/// members of an array, object or string), `count(LIST, CONDITION)` (the members for which it holds), `sum(LIST)`,
/// `all(LIST, CONDITION)`, `any(LIST, CONDITION)`.
///
/// Written by hand: a small language, read once per file, whose errors must say where in the condition they are and
/// whose evaluation must stay a small part of a walk's step. No library here parses such an expression.
public struct PropertyCondition: Sendable, Hashable, CustomStringConvertible {
    /// A part of a condition.
    public indirect enum Expression: Sendable, Hashable {
        /// A JSON pointer into the state, with `*` tokens for every member.
        case state(String)
        /// A key of the store, then a pointer into its value.
        case store(key: String, pointer: String)
        /// A pointer into the journal, an array of the session's requests.
        case journal(String)
        /// `@`, then a pointer into it: the member `all`, `any` or `count` is checking.
        case member(String)
        /// A fixed value.
        case literal(JSONValue)
        /// `count(X)`: the members of an array, object or string; 0 for anything else.
        case count(Expression)
        /// `count(LIST, CONDITION)`: the members of the list for which the condition holds.
        case countWhere(Expression, Expression)
        /// `sum(LIST)`: the numbers of the list added.
        case sum(Expression)
        /// `all(LIST, CONDITION)`: whether it holds for every member (true for none).
        case all(Expression, Expression)
        /// `any(LIST, CONDITION)`: whether it holds for one member at least.
        case any(Expression, Expression)
        /// `not X`.
        case not(Expression)
        /// `X and Y`.
        case and(Expression, Expression)
        /// `X or Y`.
        case or(Expression, Expression)
        /// `X == Y` and the other comparisons.
        case compare(Expression, Comparison, Expression)
        /// `X + Y`, `X - Y`, `X * Y`.
        case arithmetic(Expression, Arithmetic, Expression)
        /// `-X`.
        case negate(Expression)
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

    /// The operations on numbers.
    public enum Arithmetic: String, Sendable, Hashable, CaseIterable {
        /// `+`.
        case add = "+"
        /// `-`.
        case subtract = "-"
        /// `*`.
        case multiply = "*"
    }

    /// The condition; it holds when it evaluates to `true`.
    public var expression: Expression
    /// The text it was read from, for reports.
    public var description: String

    /// Whether it reads the store, which costs a request each step to fetch.
    public var readsStore: Bool { expression.reads { if case .store = $0 { true } else { false } } }
    /// Whether it reads the journal.
    public var readsJournal: Bool { expression.reads { if case .journal = $0 { true } else { false } } }

    /// Reads `text`; the error says what is wrong and at which column of the condition.
    public init(parsing text: String) throws(PropertyConditionError) {
        var parser = ConditionParser(text: text)
        expression = try parser.condition()
        description = text
    }

    /// Whether the condition holds for `state`, `store` (an object of keys) and `journal` (an array, as
    /// ``journalWithJSONBodies(_:)`` makes it).
    public func holds(state: JSONValue, store: JSONValue, journal: JSONValue) -> Bool {
        expression.evaluate(in: Context(state: state, store: store, journal: journal)) == .bool(true)
    }

    /// The journal as conditions read it: each entry's `body` and `sentBody` that hold a JSON object or array parsed,
    /// so `$journal/0/body/bookingId` reaches into a request's JSON.
    public static func journalWithJSONBodies(_ journal: JSONValue) -> JSONValue {
        guard case .array(let entries) = journal else { return journal }
        return .array(entries.map { entry in
            guard case .object(var fields) = entry else { return entry }
            for key in ["body", "sentBody"] {
                guard case .string(let text)? = fields[key], let first = text.first, first == "{" || first == "[",
                      let parsed = try? JSONValue(json: Data(text.utf8)) else { continue }
                fields[key] = parsed
            }
            return .object(fields)
        })
    }
}

/// Why a property's condition cannot be read.
public struct PropertyConditionError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Where in the condition, in characters from its start.
    public var offset: Int
    /// What is wrong and where: `at column 9: …` (counted from 1).
    public var description: String { "at column \(offset + 1) of the condition: \(message)" }
    init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}

/// What a condition is evaluated against, and the members `all`, `any` and `count` are checking, innermost last.
struct Context {
    var state: JSONValue
    var store: JSONValue
    var journal: JSONValue
    var members: [JSONValue] = []
}

extension PropertyCondition.Expression {
    /// Whether this or a part of it is an operand `isOperand` picks.
    func reads(_ isOperand: (Self) -> Bool) -> Bool {
        if isOperand(self) { return true }
        return parts.contains { $0.reads(isOperand) }
    }

    /// The expressions this one is made of.
    var parts: [Self] {
        switch self {
        case .state, .store, .journal, .member, .literal: []
        case .count(let x), .sum(let x), .not(let x), .negate(let x): [x]
        case .countWhere(let x, let y), .all(let x, let y), .any(let x, let y), .and(let x, let y), .or(let x, let y),
             .compare(let x, _, let y), .arithmetic(let x, _, let y): [x, y]
        }
    }

    /// Its value: a condition's is `true` or `false`; a pointer to nothing, arithmetic on something other than
    /// numbers, and a wildcard's members that have nothing there are `null` (wildcards skip them).
    func evaluate(in context: Context) -> JSONValue {
        switch self {
        case .state(let pointer): return Self.read(pointer, in: context.state)
        case .store(let key, let pointer):
            guard case .object(let keys) = context.store, let value = keys[key] else { return .null }
            return Self.read(pointer, in: value)
        case .journal(let pointer): return Self.read(pointer, in: context.journal)
        case .member(let pointer): return Self.read(pointer, in: context.members.last ?? .null)
        case .literal(let value): return value
        case .count(let inner):
            switch inner.evaluate(in: context) {
            case .array(let items): return .int(items.count)
            case .object(let members): return .int(members.count)
            case .string(let text): return .int(text.count)
            default: return .int(0)
            }
        case .countWhere(let list, let condition):
            return .int(Self.members(of: list.evaluate(in: context)).count { condition.holds(for: $0, in: context) })
        case .sum(let list):
            return Self.members(of: list.evaluate(in: context)).reduce(JSONValue.int(0)) { Self.combine($0, .add, $1) }
        case .all(let list, let condition):
            return .bool(Self.members(of: list.evaluate(in: context)).allSatisfy { condition.holds(for: $0, in: context) })
        case .any(let list, let condition):
            return .bool(Self.members(of: list.evaluate(in: context)).contains { condition.holds(for: $0, in: context) })
        case .not(let inner): return .bool(inner.evaluate(in: context) != .bool(true))
        case .and(let a, let b): return .bool(a.evaluate(in: context) == .bool(true) && b.evaluate(in: context) == .bool(true))
        case .or(let a, let b): return .bool(a.evaluate(in: context) == .bool(true) || b.evaluate(in: context) == .bool(true))
        case .compare(let a, let comparison, let b): return .bool(Self.compare(a.evaluate(in: context), comparison, b.evaluate(in: context)))
        case .arithmetic(let a, let operation, let b): return Self.combine(a.evaluate(in: context), operation, b.evaluate(in: context))
        case .negate(let inner): return Self.combine(.int(0), .subtract, inner.evaluate(in: context))
        }
    }

    /// Whether this condition holds with `member` as `@`.
    func holds(for member: JSONValue, in context: Context) -> Bool {
        var inner = context
        inner.members.append(member)
        return evaluate(in: inner) == .bool(true)
    }

    /// What `all`, `any`, `count` and `sum` go through: an array's items, an object's values (by key), else none.
    static func members(of value: JSONValue) -> [JSONValue] {
        switch value {
        case .array(let items): items
        case .object(let members): members.keys.sorted().compactMap { members[$0] }
        default: []
        }
    }

    /// The value at `pointer` in `root`; a `*` token takes every member there, and the result is then the list of
    /// what each has at the rest of the pointer (those with nothing there left out).
    static func read(_ pointer: String, in root: JSONValue) -> JSONValue {
        if pointer.isEmpty || pointer == "/" { return root }
        // By its bytes: a string search through Foundation cost most of a check (profiled, earlier round).
        guard pointer.utf8.contains(UInt8(ascii: "*")) else { return root.value(at: pointer) ?? .null }
        var values = [root]
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if token == "*" {
                values = values.flatMap(members(of:))
            } else {
                let name = JSONValue.name(ofPointerToken: token)
                values = values.compactMap { value in
                    switch value {
                    case .object(let members): members[name]
                    case .array(let items): Int(name).flatMap { items.indices.contains($0) ? items[$0] : nil }
                    default: nil
                    }
                }
            }
        }
        return .array(values)
    }

    static func compare(_ a: JSONValue, _ comparison: PropertyCondition.Comparison, _ b: JSONValue) -> Bool {
        switch comparison {
        case .equal: a.firstMismatch(with: b) == nil
        case .notEqual: a.firstMismatch(with: b) != nil
        case .less: order(a, b).map { $0 < 0 } ?? false
        case .lessOrEqual: order(a, b).map { $0 <= 0 } ?? false
        case .greater: order(a, b).map { $0 > 0 } ?? false
        case .greaterOrEqual: order(a, b).map { $0 >= 0 } ?? false
        }
    }

    /// Numbers by value, strings in code-point order; nil when the two cannot be ordered.
    private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        default:
            guard let x = a.number, let y = b.number else { return nil }
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// Integers stay exact while they fit; otherwise, and with any fraction, the result is a double. Anything but
    /// numbers gives `null`.
    static func combine(_ a: JSONValue, _ operation: PropertyCondition.Arithmetic, _ b: JSONValue) -> JSONValue {
        if case .int(let x) = a, case .int(let y) = b {
            let (result, overflow) = switch operation {
            case .add: x.addingReportingOverflow(y)
            case .subtract: x.subtractingReportingOverflow(y)
            case .multiply: x.multipliedReportingOverflow(by: y)
            }
            if !overflow { return .int(result) }
        }
        guard let x = a.number, let y = b.number else { return .null }
        return switch operation {
        case .add: .double(x + y)
        case .subtract: .double(x - y)
        case .multiply: .double(x * y)
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
