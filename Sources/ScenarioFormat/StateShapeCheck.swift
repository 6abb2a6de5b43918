import Fakes
import Services

/// Every place a team service's state (as JSON) does not fit its type's ``Fakes/ValueShape``: unknown keys (with
/// the closest allowed one), missing required keys, values of the wrong kind, enum values that are not cases,
/// instants that do not parse. All of them, in one pass, where `Decodable` stops at the first; the type's own
/// decoding then has the last word on what the shape cannot say.
struct StateShapeCheck {
    typealias Step = ServiceStateDecoding.Step
    typealias Failure = ServiceStateDecoding.Failure

    /// How messages name the value's top (`notifications`).
    let section: String

    /// The failures of `value` against `shape`, in key order.
    func failures(of value: JSONValue, against shape: ValueShape, at path: [Step] = []) -> [Failure] {
        let place = ServiceStateDecoding.describe(path, section: section)
        func mismatch() -> [Failure] {
            [Failure(path: path, message: "\(place) must be \(shape.summary), got \(ServiceStateDecoding.describe(value)).")]
        }
        switch (shape, value) {
        case (.unknown, _):
            return []
        case (.string(let format), .string(let text)):
            if format == "date-time", let problem = InstantText.problem(text) {
                return [Failure(path: path, message: "\(place) must be \(shape.summary): \(problem).")]
            }
            return []
        case (.integer, .int), (.number, .int), (.number, .double), (.boolean, .bool):
            return []
        case (.integer, .double(let number)) where number.rounded() == number:
            return []
        case (.oneOf(let values), _):
            guard !values.contains(value) else { return [] }
            let names = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            let suggestion = if case .string(let text) = value { Suggestion.didYouMean(text, among: names) } else { "" }
            return [Failure(path: path, message: "\(place) must be \(shape.summary), got \(ServiceStateDecoding.describe(value)).\(suggestion)")]
        case (.list(let element), .array(let items)):
            return items.enumerated().flatMap { index, item in failures(of: item, against: element, at: path + [.index(index)]) }
        case (.map(let element), .object(let members)):
            return members.keys.sorted().flatMap { key in failures(of: members[key] ?? .null, against: element, at: path + [.key(key)]) }
        case (.object(let fields, let complete), .object(let members)):
            return objectFailures(members, fields: fields, complete: complete, at: path)
        default:
            return mismatch()
        }
    }

    private func objectFailures(_ members: [String: JSONValue], fields: [ValueShape.Field], complete: Bool,
                                at path: [Step]) -> [Failure] {
        let place = ServiceStateDecoding.describe(path, section: section)
        let allowed = fields.map(\.name).sorted()
        var found: [Failure] = []
        if complete {
            found += fields.filter { $0.required && members[$0.name] == nil }.map { field in
                Failure(path: path, message: "\(place) is missing the required key '\(field.name)' (\(field.shape.summary)).")
            }
        }
        for key in members.keys.sorted() {
            let value = members[key] ?? .null
            guard let field = fields.first(where: { $0.name == key }) else {
                // A key the shape does not list is wrong only when the shape lists them all; the type's decoding
                // and the comparison after it judge the rest.
                guard complete else { continue }
                found.append(Failure(path: path + [.key(key)], message: "unknown key '\(key)' in \(place)."
                    + "\(Suggestion.didYouMean(key, among: allowed)) Allowed keys: \(allowed.joined(separator: ", "))."))
                continue
            }
            // null leaves an optional key out.
            if value == .null, !field.required { continue }
            found += failures(of: value, against: field.shape, at: path + [.key(key)])
        }
        return found
    }
}
