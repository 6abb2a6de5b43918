import Fakes
import ControlAPI
import Foundation
import ScenarioFormat
import Services

/// Decodes a Model's `Action` from a name and JSON arguments, turning `DecodingError`s into sentences a client
/// can act on ("action 'rate' needs the argument 'bus' (a number)").
enum ActionDecoding {
    static func decode<Action: Decodable>(_ type: Action.Type, name: String, arguments: JSONValue) throws(HostError) -> Action {
        guard case .object = arguments else {
            throw HostError(.invalidArguments, "the arguments of action '\(name)' must be a JSON object, got \(arguments.typeName).")
        }
        do {
            return try JSONDecoder.services.decode(Action.self, from: JSONValue.object([name: arguments]).jsonData)
        } catch let error as DecodingError {
            throw HostError(.invalidArguments, message(for: error, action: name))
        } catch {
            throw HostError(.invalidArguments, "the arguments of action '\(name)' could not be read: \(error)")
        }
    }

    /// Refuses an argument the action does not declare, so a misspelt `vaule` is named as such, not reported as a
    /// missing `value`.
    static func refuseUnknownArguments(_ arguments: JSONValue, of action: ActionDescription) throws(HostError) {
        guard case .object(let fields) = arguments else { return }
        let known = action.arguments.map(\.name)
        for field in fields.keys.sorted() where !known.contains(field) {
            let allowed = known.isEmpty ? "it takes no arguments" : "its arguments: \(known.joined(separator: ", "))"
            throw HostError(.unknownField, "action '\(action.name)' has no argument '\(field)'.\(Suggestion.didYouMean(field, among: known)) (\(allowed).)")
        }
    }

    /// Refuses an argument whose JSON type is not the one the action's description gives, in the description's own
    /// words ("must be an integer, got 4.5"), before the Model's decoder can say it in its own (an integer argument
    /// given 4.5 read "argument '' is invalid: The given data was not valid JSON").
    static func refuseMistypedArguments(_ arguments: JSONValue, of action: ActionDescription) throws(HostError) {
        guard case .object(let fields) = arguments else { return }
        for argument in action.arguments {
            guard let value = fields[argument.name] else { continue }
            if value == .null, !argument.required { continue }
            guard !fits(value, argument.type) else { continue }
            let optional = argument.required ? "" : " (or null, or left out)"
            throw HostError(.invalidArguments, "action '\(action.name)': argument '\(argument.name)' must be \(article(argument.type)) \(argument.type)\(optional), got \(shown(value)).")
        }
    }

    /// Whether `value` is of the description's JSON type; a type the description does not name is the decoder's to check.
    private static func fits(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("integer", .int): true
        case ("integer", .double(let number)): number.rounded() == number && abs(number) < 9.0e18
        case ("number", .int), ("number", .double), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("integer", _), ("number", _), ("boolean", _), ("string", _), ("array", _), ("object", _): false
        default: true
        }
    }

    private static func article(_ type: String) -> String { type.first.map { "aeiou".contains($0) } == true ? "an" : "a" }

    /// The value as a client would recognise it: `4.5`, `the string "five"`, `null`, `an object`.
    private static func shown(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let text): "the string \(String(decoding: JSONValue.string(String(text.prefix(40))).jsonData, as: UTF8.self))"
        case .array, .object: value.typeName
        }
    }

    private static func message(for error: DecodingError, action: String) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let full = path(context.codingPath + [key])
            return "action '\(action)' needs the argument '\(full)'."
        case .typeMismatch(let type, let context):
            return "action '\(action)': argument '\(path(context.codingPath))' must be \(describe(type))."
        case .valueNotFound(let type, let context):
            return "action '\(action)': argument '\(path(context.codingPath))' must be \(describe(type)), not null."
        case .dataCorrupted(let context):
            return "action '\(action)': argument '\(path(context.codingPath))' is invalid: \(context.debugDescription)"
        @unknown default:
            return "action '\(action)': the arguments are invalid."
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Double.Type: "a number"
        default: "a JSON \(type)"
        }
    }
}
