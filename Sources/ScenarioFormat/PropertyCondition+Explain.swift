import Foundation
public import Services

extension PropertyCondition {
    /// The values behind the verdict, for a report: `/unread is -1`; for `all`, the first member that breaks the
    /// condition and its values (`/bookings/*: member 2 breaks it: @/status is "charged", @/chargeId is null`).
    public func explain(state: JSONValue, store: JSONValue, journal: JSONValue) -> String {
        var parts: [String] = []
        expression.explain(in: Context(state: state, store: store, journal: journal), into: &parts)
        var seen = Set<String>()
        return parts.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}

extension PropertyCondition.Expression: CustomStringConvertible {
    /// The expression as a condition writes it.
    public var description: String {
        switch self {
        case .state(let pointer): pointer
        case .store(let key, let pointer): "$store/\(JSONValue.pointerToken(key))\(pointer)"
        case .journal(let pointer): "$journal\(pointer)"
        case .member(let pointer): "@\(pointer)"
        case .literal(let value): String(decoding: value.jsonData, as: UTF8.self)
        case .count(let inner): "count(\(inner))"
        case .countWhere(let list, let condition): "count(\(list), \(condition))"
        case .sum(let list): "sum(\(list))"
        case .all(let list, let condition): "all(\(list), \(condition))"
        case .any(let list, let condition): "any(\(list), \(condition))"
        case .not(let inner): "not \(inner.grouped(above: 3))"
        case .and(let a, let b): "\(a.grouped(above: 2)) and \(b.grouped(above: 2))"
        case .or(let a, let b): "\(a) or \(b)"
        case .compare(let a, let comparison, let b): "\(a.grouped(above: 4)) \(comparison.rawValue) \(b.grouped(above: 4))"
        case .arithmetic(let a, let operation, let b):
            operation == .multiply ? "\(a.grouped(above: 6)) * \(b.grouped(above: 6))" : "\(a.grouped(above: 5)) \(operation.rawValue) \(b.grouped(above: 6))"
        case .negate(let inner): "-\(inner.grouped(above: 6))"
        }
    }

    /// How tightly it binds: `or` 1, `and` 2, `not` 3, a comparison 4, `+ -` 5, `*` 6, an operand 7.
    private var precedence: Int {
        switch self {
        case .or: 1
        case .and: 2
        case .not: 3
        case .compare: 4
        case .arithmetic(_, let operation, _): operation == .multiply ? 6 : 5
        default: 7
        }
    }

    /// In brackets when it binds less tightly than `level` needs.
    private func grouped(above level: Int) -> String { precedence < level ? "(\(self))" : "\(self)" }

    /// Appends what a reader needs to see why this came out as it did.
    func explain(in context: Context, into parts: inout [String]) {
        switch self {
        case .literal: return
        case .state, .store, .journal, .member, .count, .countWhere, .sum:
            parts.append("\(self) is \(String(decoding: evaluate(in: context).jsonData, as: UTF8.self))")
        case .all(let list, let condition):
            let members = Self.members(of: list.evaluate(in: context))
            guard let index = members.firstIndex(where: { !condition.holds(for: $0, in: context) }) else {
                parts.append("all \(members.count) members of \(list) keep \(condition)")
                return
            }
            var inner = context
            inner.members.append(members[index])
            var values: [String] = []
            condition.explain(in: inner, into: &values)
            parts.append("\(list): member \(index) breaks \(condition)" + (values.isEmpty ? "" : " (\(values.joined(separator: ", ")))"))
        case .any(let list, let condition):
            let members = Self.members(of: list.evaluate(in: context))
            if let index = members.firstIndex(where: { condition.holds(for: $0, in: context) }) {
                parts.append("\(list): member \(index) keeps \(condition)")
            } else {
                parts.append("none of the \(members.count) members of \(list) keeps \(condition)")
            }
        case .not(let inner), .negate(let inner): inner.explain(in: context, into: &parts)
        case .and(let a, let b), .or(let a, let b), .compare(let a, _, let b), .arithmetic(let a, _, let b):
            a.explain(in: context, into: &parts)
            b.explain(in: context, into: &parts)
        }
    }
}
