public import Fakes
import Foundation
public import Services

/// Reads a team service's state from JSON (its scenario section, or a `PUT` body) and says exactly what is wrong
/// when it cannot: every field that does not fit the state's shape (``/Fakes/ServiceDefinition/shape``) by its
/// path, what was expected and what was found, in one pass; then what the type's own decoding refuses, and a key
/// the state does not keep (found by encoding the decoded state again and comparing keys, since `Decodable`
/// ignores extra keys).
public enum ServiceStateDecoding {
    /// One step of a path into a JSON value.
    public enum Step: Sendable, Hashable {
        /// Into an object's member of this name.
        case key(String)
        /// Into an array's element at this 0-based index.
        case index(Int)
    }

    /// Something wrong at a place in the value.
    public struct Failure: Sendable, Hashable {
        /// Where: the path from the value's top.
        public var path: [Step]
        /// What is wrong and what to write instead; it names the field as `section.path`.
        public var message: String
    }

    /// Every failure found, as an Error so it travels in a `Result`.
    public struct Failures: Error, Sendable {
        /// In the order found.
        public var list: [Failure]
    }

    /// The decoded state, or every failure found.
    /// - Parameters:
    ///   - json: The state as JSON.
    ///   - definition: The service whose state it is.
    ///   - section: How to name the value's top in messages (`notifications`, or the request body).
    public static func decode(_ json: JSONValue, for definition: ServiceDefinition, section: String) -> Result<any Sendable, Failures> {
        // The shape finds every problem at once; Decodable alone would stop at the first.
        let misfits = StateShapeCheck(section: section).failures(of: json, against: definition.shape)
        guard misfits.isEmpty else { return .failure(Failures(list: misfits)) }
        let state: any Sendable
        do {
            state = try definition.decode(json.jsonData)
        } catch let error as DecodingError {
            // The top level's unknown keys are found without a decoded state: against the fields the type reads and
            // the initial state has.
            var known = definition.fields.map(\.name)
            if case .object(let initial) = definition.encode(definition.initialState) { known += initial.keys }
            let unknown = unknownKeys(json, known: .object(Dictionary(known.map { ($0, .null) }) { first, _ in first }),
                                      path: [], section: section, topLevelFields: [], descend: false)
            return .failure(Failures(list: [failure(error, in: json, section: section)] + unknown))
        } catch {
            return .failure(Failures(list: [Failure(path: [], message: "\(section) cannot be read as \(definition.stateType): \(error)")]))
        }
        let unknown = unknownKeys(json, known: definition.encode(state), path: [], section: section,
                                  topLevelFields: definition.fields.map(\.name))
        return unknown.isEmpty ? .success(state) : .failure(Failures(list: unknown))
    }

    /// `section.a.b[2]`.
    public static func describe(_ path: [Step], section: String) -> String {
        path.reduce(section) { text, step in
            switch step {
            case .key(let key): "\(text).\(key)"
            case .index(let index): "\(text)[\(index)]"
            }
        }
    }

    /// `/a/b/2` (RFC 6901, `~` and `/` in a key escaped), or `/` for the value's top, as a session's overrides write
    /// where their problems are.
    public static func pointer(to path: [Step]) -> String {
        guard !path.isEmpty else { return "/" }
        return path.map { step in
            switch step {
            case .key(let key): "/" + JSONValue.pointerToken(key)
            case .index(let index): "/\(index)"
            }
        }.joined()
    }

    private static func failure(_ error: DecodingError, in json: JSONValue, section: String) -> Failure {
        func steps(_ codingPath: [any CodingKey]) -> [Step] {
            codingPath.map { key in key.intValue.map(Step.index) ?? .key(key.stringValue) }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let path = steps(context.codingPath)
            return Failure(path: path, message: "\(describe(path, section: section)) is missing the required key '\(key.stringValue)'.")
        case .typeMismatch(let type, let context):
            let path = steps(context.codingPath)
            let found = value(at: path, in: json).map(describe) ?? "nothing"
            return Failure(path: path, message: "\(describe(path, section: section)) must be \(describe(type)), got \(found).")
        case .valueNotFound(let type, let context):
            let path = steps(context.codingPath)
            return Failure(path: path, message: "\(describe(path, section: section)) must be \(describe(type)), got nothing.")
        case .dataCorrupted(let context):
            let path = steps(context.codingPath)
            let found = value(at: path, in: json).map { ", got \(describe($0))" } ?? ""
            return Failure(path: path, message: "\(describe(path, section: section)) is invalid\(found): \(context.debugDescription)")
        @unknown default:
            return Failure(path: [], message: "\(section) is invalid: \(error)")
        }
    }

    /// Keys in `json` that the decoded state did not keep, with the keys it has as suggestions.
    private static func unknownKeys(_ json: JSONValue, known: JSONValue, path: [Step], section: String,
                                    topLevelFields: [String], descend: Bool = true) -> [Failure] {
        switch (json, known) {
        case (.object(let fields), .object(let knownFields)):
            let allowed = Array(Set(knownFields.keys).union(path.isEmpty ? topLevelFields : [])).sorted()
            return fields.keys.sorted().flatMap { key -> [Failure] in
                let value = fields[key] ?? .null
                guard let knownValue = knownFields[key] else {
                    if value == .null { return [] }
                    let list = allowed.isEmpty ? "" : " Allowed keys: \(allowed.joined(separator: ", "))."
                    return [Failure(path: path + [.key(key)],
                                    message: "unknown key '\(key)' in \(describe(path, section: section)).\(Suggestion.didYouMean(key, among: allowed))\(list)")]
                }
                return descend ? unknownKeys(value, known: knownValue, path: path + [.key(key)], section: section, topLevelFields: []) : []
            }
        case (.array(let items), .array(let knownItems)) where items.count == knownItems.count:
            return zip(items, knownItems).enumerated().flatMap { index, pair in
                unknownKeys(pair.0, known: pair.1, path: path + [.index(index)], section: section, topLevelFields: [])
            }
        default:
            return []
        }
    }

    private static func value(at path: [Step], in json: JSONValue) -> JSONValue? {
        path.reduce(Optional(json)) { value, step in
            switch (value, step) {
            case (.object(let fields)?, .key(let key)): fields[key]
            case (.array(let items)?, .index(let index)) where items.indices.contains(index): items[index]
            default: nil
            }
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any FixedWidthInteger.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        // JSONDecoder names these two when it wanted an object or an array.
        case is [String: Any].Type: "a mapping"
        case is [Any].Type: "a list"
        default: "\(type)"
        }
    }

    /// `'text'`, `the number 5`, `a list`: a value as messages name it.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "nothing"
        case .bool(let flag): "the boolean \(flag)"
        case .int(let number): "the number \(number)"
        case .double(let number): "the number \(number)"
        case .string(let text): "'\(text)'"
        case .array: "a list"
        case .object: "a mapping"
        }
    }
}
