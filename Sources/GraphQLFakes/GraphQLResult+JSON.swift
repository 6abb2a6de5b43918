import Foundation
import GraphQL
import OrderedCollections

/// A result as GraphQL servers send it: `data` with its fields in the order the query selected them, then `errors`
/// with message, locations and path. Written by hand because JSONEncoder writes a `Map`'s ordered keys in the
/// order of a hashed container, which differs run to run, and a session's journal must be the same bytes every run.
extension GraphQLResult {
    var orderedJSON: Data {
        var text = "{"
        var parts: [String] = []
        if let data { parts.append(#""data":"# + Self.json(data)) }
        if !errors.isEmpty { parts.append(#""errors":["# + errors.map(Self.json(error:)).joined(separator: ",") + "]") }
        text += parts.joined(separator: ",") + "}"
        return Data(text.utf8)
    }

    private static func json(error: GraphQLError) -> String {
        var fields = [#""message":"# + string(error.message)]
        if !error.locations.isEmpty {
            fields.append(#""locations":["# + error.locations.map { #"{"line":\#($0.line),"column":\#($0.column)}"# }.joined(separator: ",") + "]")
        }
        if !error.path.elements.isEmpty {
            fields.append(#""path":["# + error.path.elements.map { element in
                switch element {
                case .index(let index): String(index)
                case .key(let key): string(key)
                }
            }.joined(separator: ",") + "]")
        }
        if !error.extensions.isEmpty {
            fields.append(#""extensions":"# + json(.dictionary(.init(uniqueKeysWithValues: error.extensions.sorted { $0.key < $1.key }))))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func json(_ map: Map) -> String {
        switch map {
        case .undefined, .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number):
            number.storageType == .double ? (number.doubleValue.isFinite ? "\(number.doubleValue)" : "null") : String(number.intValue)
        case .string(let text): string(text)
        case .array(let items): "[" + items.map(json).joined(separator: ",") + "]"
        case .dictionary(let fields): "{" + fields.map { string($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
        }
    }

    private static func string(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
