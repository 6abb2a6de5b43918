import Foundation

/// How one value of a request (a query item, a header field, a JSON body field) must look for a route to match.
public enum ValueMatch: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Equal to this text (for a JSON field: its text, so `5` matches the number 5).
    case equals(String)
    /// Wholly matched by this regular expression.
    case regex(URLPattern)
    /// Containing this text.
    case contains(String)
    /// There, with any value.
    case present
    /// Not there at all.
    case absent
    /// A number compared with this one.
    case compare(Comparison, Double)

    /// A numeric comparison, named as scenario files write it.
    public enum Comparison: String, Sendable, CaseIterable {
        /// Less than the bound.
        case lt
        /// Less than or equal to the bound.
        case lte
        /// Greater than the bound.
        case gt
        /// Greater than or equal to the bound.
        case gte

        func holds(_ actual: Double, _ bound: Double) -> Bool {
            switch self {
            case .lt: actual < bound
            case .lte: actual <= bound
            case .gt: actual > bound
            case .gte: actual >= bound
            }
        }

        var symbol: String {
            switch self {
            case .lt: "<"
            case .lte: "<="
            case .gt: ">"
            case .gte: ">="
            }
        }
    }

    public init(stringLiteral value: String) { self = .equals(value) }

    /// Whether `actual` (nil when the value is not there) matches.
    public func matches(_ actual: String?) -> Bool {
        switch self {
        case .absent: return actual == nil
        case .present: return actual != nil
        case .equals(let expected): return actual == expected
        case .regex(let pattern): return actual.map(pattern.matches) ?? false
        case .contains(let text): return actual?.contains(text) ?? false
        case .compare(let comparison, let bound):
            guard let actual, let number = Double(actual.trimmingCharacters(in: .whitespaces)) else { return false }
            return comparison.holds(number, bound)
        }
    }

    /// What near misses say was expected: `Bearer t1`, `regex ^Bearer .+$`, `present`, `>= 18`.
    public var description: String {
        switch self {
        case .equals(let text): text
        case .regex(let pattern): "regex \(pattern.source)"
        case .contains(let text): "contains \(text)"
        case .present: "present"
        case .absent: "absent"
        case .compare(let comparison, let bound): "\(comparison.symbol) \(bound.formatted(.number.grouping(.never)))"
        }
    }
}
