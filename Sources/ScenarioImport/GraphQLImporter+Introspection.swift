import Foundation
import Services

/// An introspection query's result written as SDL: what a team has when it can ask a server (`__schema`) but has no
/// schema file. Written by hand because GraphQLSwift builds schemas from SDL only (it has no `buildClientSchema`).
extension GraphQLImporter {
    /// The file's schema as SDL: the file itself when it is not JSON, else the introspection result it holds.
    static func sdl(from data: Data, file: String) throws(ImportError) -> String {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError(file: file, problem: "the file is not UTF-8 text; give a GraphQL schema (SDL) or an introspection result (JSON).")
        }
        guard text.drop(while: { $0.isWhitespace }).first == "{", let json = try? JSONValue(json: data) else { return text }
        var schema = json
        var path = ""
        if case .object(let top) = json, case .object(let inner)? = top["data"] { schema = .object(inner); path = "/data" }
        guard case .object(let top) = schema, case .object(let described)? = top["__schema"] else {
            throw ImportError(file: file, pointer: path.isEmpty ? "/" : path,
                              problem: "the JSON has no __schema; give the result of an introspection query ({\"data\": {\"__schema\": …}}) or the schema as SDL.")
        }
        guard case .array(let types)? = described["types"] else {
            throw ImportError(file: file, pointer: "\(path)/__schema/types", problem: "__schema has no list of types.")
        }
        var blocks: [String] = []
        let roots = ["queryType": "query", "mutationType": "mutation", "subscriptionType": "subscription"].sorted { $0.key < $1.key }
        let schemaLines = roots.compactMap { key, operation -> String? in
            guard case .object(let root)? = described[key], case .string(let name)? = root["name"] else { return nil }
            return "  \(operation): \(name)"
        }
        if !schemaLines.isEmpty { blocks.append("schema {\n\(schemaLines.joined(separator: "\n"))\n}") }
        for (index, type) in types.enumerated() {
            guard case .object(let fields) = type, case .string(let kind)? = fields["kind"], case .string(let name)? = fields["name"] else {
                throw ImportError(file: file, pointer: "\(path)/__schema/types/\(index)", problem: "a type needs a kind and a name.")
            }
            // The built-in scalars and the introspection types are every schema's own.
            guard !name.hasPrefix("__"), !["String", "Int", "Float", "Boolean", "ID"].contains(name) else { continue }
            let place = "\(path)/__schema/types/\(index)"
            let described = Self.description(fields["description"], indent: "")
            switch kind {
            case "SCALAR":
                blocks.append(described + "scalar \(name)")
            case "OBJECT", "INTERFACE":
                let interfaces = try names(fields["interfaces"], file: file, at: "\(place)/interfaces")
                let implements = interfaces.isEmpty ? "" : " implements \(interfaces.joined(separator: " & "))"
                let lines = try fieldLines(fields["fields"], file: file, at: "\(place)/fields", input: false)
                blocks.append(described + "\(kind == "OBJECT" ? "type" : "interface") \(name)\(implements) {\n\(lines.joined(separator: "\n"))\n}")
            case "UNION":
                blocks.append(described + "union \(name) = \(try names(fields["possibleTypes"], file: file, at: "\(place)/possibleTypes").joined(separator: " | "))")
            case "ENUM":
                guard case .array(let values)? = fields["enumValues"] else {
                    throw ImportError(file: file, pointer: "\(place)/enumValues", problem: "an enum needs its values.")
                }
                let names = values.compactMap { value -> String? in
                    if case .object(let value) = value, case .string(let name)? = value["name"] { return "  \(name)" }
                    return nil
                }
                blocks.append(described + "enum \(name) {\n\(names.joined(separator: "\n"))\n}")
            case "INPUT_OBJECT":
                let lines = try fieldLines(fields["inputFields"], file: file, at: "\(place)/inputFields", input: true)
                blocks.append(described + "input \(name) {\n\(lines.joined(separator: "\n"))\n}")
            default:
                throw ImportError(file: file, pointer: "\(place)/kind", problem: "'\(kind)' is not a kind of GraphQL type.")
            }
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// The names of a list of type references (interfaces, a union's types).
    private static func names(_ value: JSONValue?, file: String, at place: String) throws(ImportError) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            if case .object(let reference) = item, case .string(let name)? = reference["name"] { return name }
            return nil
        }
    }

    /// `  name(args): Type` for each field (`  name: Type = default` for an input's).
    private static func fieldLines(_ value: JSONValue?, file: String, at place: String, input: Bool) throws(ImportError) -> [String] {
        guard case .array(let items)? = value, !items.isEmpty else {
            throw ImportError(file: file, pointer: place, problem: "the type has no fields; an object, interface or input type needs at least one.")
        }
        var lines: [String] = []
        for (index, item) in items.enumerated() {
            guard case .object(let field) = item, case .string(let name)? = field["name"], let type = typeText(field["type"]) else {
                throw ImportError(file: file, pointer: "\(place)/\(index)", problem: "a field needs a name and a type.")
            }
            var arguments = ""
            if !input, case .array(let args)? = field["args"], !args.isEmpty {
                let written = try args.enumerated().map { argIndex, arg throws(ImportError) -> String in
                    guard case .object(let arg) = arg, case .string(let argName)? = arg["name"], let argType = typeText(arg["type"]) else {
                        throw ImportError(file: file, pointer: "\(place)/\(index)/args/\(argIndex)", problem: "an argument needs a name and a type.")
                    }
                    return "\(argName): \(argType)" + defaultText(arg["defaultValue"])
                }
                arguments = "(\(written.joined(separator: ", ")))"
            }
            lines.append(Self.description(field["description"], indent: "  ") + "  \(name)\(arguments): \(type)" + (input ? defaultText(field["defaultValue"]) : ""))
        }
        return lines
    }

    /// A description as SDL writes it, a block string on the lines before what it describes; nothing for none.
    private static func description(_ value: JSONValue?, indent: String) -> String {
        guard case .string(let text)? = value, !text.isEmpty else { return "" }
        return "\(indent)\"\"\"\(text.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\""))\"\"\"\n"
    }

    private static func defaultText(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { return " = \(text)" }
        return ""
    }

    /// A type reference (`{"kind": "NON_NULL", "ofType": {"kind": "LIST", …}}`) as SDL writes it (`[Trip!]!`).
    private static func typeText(_ value: JSONValue?) -> String? {
        guard case .object(let reference)? = value, case .string(let kind)? = reference["kind"] else { return nil }
        switch kind {
        case "NON_NULL": return typeText(reference["ofType"]).map { "\($0)!" }
        case "LIST": return typeText(reference["ofType"]).map { "[\($0)]" }
        default:
            if case .string(let name)? = reference["name"] { return name }
            return nil
        }
    }
}
