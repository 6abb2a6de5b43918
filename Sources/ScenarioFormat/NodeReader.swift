import Fakes
import Foundation
import Services
import Yams

/// Reads a composed YAML tree with the strictness scenario files need: every read checks the type, and every
/// failure is recorded as a ``ScenarioProblem`` at the node's line and column instead of stopping, so one pass
/// reports every problem in a file.
struct NodeReader {
    let file: String
    private(set) var problems: [ScenarioProblem] = []

    init(file: String) {
        self.file = file
    }

    mutating func report(_ message: String, at node: Node?) {
        report(message, line: node?.mark?.line, column: node?.mark?.column)
    }

    mutating func report(_ message: String, line: Int?, column: Int?) {
        problems.append(ScenarioProblem(file: file, line: line, column: column, message: message))
    }

    /// Records a problem inside another file the scenario reads (a stream's fixture), at its own line.
    mutating func report(_ message: String, inFile other: String, line: Int?, column: Int? = nil) {
        problems.append(ScenarioProblem(file: other, line: line, column: column, message: message))
    }

    /// The mapping's values by key, after checking that it is a mapping, that every key is allowed, and that every
    /// required key is there. Returns nil (with a problem recorded) when `node` is not a mapping.
    mutating func mapping(_ node: Node, at path: String, allowed: [String], required: [String] = []) -> [String: Node]? {
        guard case .mapping(let mapping) = node else {
            report("\(path) must be a mapping of keys (\(allowed.joined(separator: ", "))), got \(describe(node)).", at: node)
            return nil
        }
        var values: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
                report("\(path) has a key that is not a plain name; keys are \(allowed.joined(separator: ", ")).", at: keyNode)
                continue
            }
            guard allowed.contains(key) else {
                report("unknown key '\(key)' in \(path).\(Suggestion.didYouMean(key, among: allowed))"
                       + " Allowed keys: \(allowed.joined(separator: ", ")).", at: keyNode)
                continue
            }
            values[key] = value
        }
        for key in required where values[key] == nil {
            report("\(path) is missing the required key '\(key)'.", at: node)
        }
        return values
    }

    /// The items of a sequence, or nil with a problem.
    mutating func sequence(_ node: Node, at path: String, of what: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            report("\(path) must be a list of \(what), got \(describe(node)).", at: node)
            return nil
        }
        return Array(sequence)
    }

    /// A string: a scalar whose YAML type is string (quote `yes`, `12` and the like to make them strings).
    mutating func string(_ node: Node, at path: String) -> String? {
        guard let scalar = node.scalar, node.tag.rawValue == Tag.Name.str.rawValue else {
            report("\(path) must be a string, got \(describe(node)). Quote it if it should be text.", at: node)
            return nil
        }
        return scalar.string
    }

    /// Any scalar's text, for values where numbers and booleans are fine as text (header and query values).
    mutating func text(_ node: Node, at path: String) -> String? {
        guard let scalar = node.scalar, node.tag.rawValue != Tag.Name.null.rawValue else {
            report("\(path) must be a single value, got \(describe(node)).", at: node)
            return nil
        }
        return scalar.string
    }

    mutating func bool(_ node: Node, at path: String) -> Bool? {
        guard node.tag.rawValue == Tag.Name.bool.rawValue, let value = node.bool else {
            report("\(path) must be true or false, got \(describe(node)).", at: node)
            return nil
        }
        return value
    }

    mutating func int(_ node: Node, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard node.tag.rawValue == Tag.Name.int.rawValue, let value = node.int, range.contains(value) else {
            report("\(path) must be an integer from \(range.lowerBound) to \(range.upperBound), got \(describe(node)).", at: node)
            return nil
        }
        return value
    }

    /// One of an enumeration's raw values.
    mutating func choice<Value: RawRepresentable & CaseIterable>(_ node: Node, at path: String, of: Value.Type) -> Value?
    where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        guard let text = string(node, at: path) else { return nil }
        guard let value = Value(rawValue: text) else {
            report("\(path) must be one of \(names.joined(separator: ", ")), got '\(text)'.\(Suggestion.didYouMean(text, among: names))", at: node)
            return nil
        }
        return value
    }

    mutating func duration(_ node: Node, at path: String) -> Duration? {
        guard let text = node.scalar?.string, let duration = DurationText.parse(text) else {
            report("\(path) must be a duration such as 250ms, 2s, 15m or 1h30m, got \(describe(node)).", at: node)
            return nil
        }
        return duration
    }

    /// An instant in ISO 8601 with a time zone, e.g. 2026-11-01T09:00:00Z.
    mutating func instant(_ node: Node, at path: String) -> Date? {
        guard let text = node.scalar?.string, let date = InstantText.parse(text) else {
            // Text shaped like a date gets the reason it is not one (a missing zone, 31 February).
            if let text = node.scalar?.string, text.first?.isNumber == true, let problem = InstantText.problem(text) {
                report("\(path): \(problem).", at: node)
            } else {
                report("\(path) must be an ISO 8601 instant with a time zone, such as 2026-11-01T09:00:00Z, got \(describe(node)).", at: node)
            }
            return nil
        }
        return date
    }

    /// A mapping of names to text values (headers, query items).
    mutating func textMap(_ node: Node, at path: String) -> [String: String]? {
        guard case .mapping(let mapping) = node else {
            report("\(path) must be a mapping of names to values, got \(describe(node)).", at: node)
            return nil
        }
        var values: [String: String] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { continue }
            if let text = text(value, at: "\(path).\(name)") { values[name] = text }
        }
        return values
    }

    /// The node as a JSON value: mappings become objects, sequences arrays, scalars by their YAML type.
    func json(_ node: Node) -> JSONValue {
        switch node {
        case .mapping(let mapping):
            return .object(Dictionary(mapping.map { ($0.key.scalar?.string ?? "", json($0.value)) }) { first, _ in first })
        case .sequence(let sequence):
            return .array(sequence.map(json))
        case .alias:
            return .null
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case Tag.Name.int.rawValue: return node.int.map(JSONValue.int) ?? .string(scalar.string)
            case Tag.Name.float.rawValue: return node.float.map(JSONValue.double) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        }
    }

    /// "a mapping", "the number 12", "'text'": what a node is, for messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return "nothing"
            case Tag.Name.bool.rawValue: return "the boolean \(scalar.string)"
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue: return "the number \(scalar.string)"
            default: return "'\(scalar.string)'"
            }
        }
    }
}
