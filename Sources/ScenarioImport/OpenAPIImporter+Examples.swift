import Foundation
import OpenAPIKit
import ScenarioFormat
import Services
import Yams

/// Responses: the status, the content type and documented headers, and a body from the document's examples or
/// generated from its schema.
extension OpenAPITranslation {
    /// A body as the route sends it: JSON, or text (XML, plain text, a serialized example) sent as written.
    enum Body {
        case json(JSONValue)
        case text(String)
    }

    /// Bodies up to this many bytes are written inline as `body:`; longer ones go to a fixture file, which keeps
    /// `scenario.yaml` readable as a list of routes.
    static let inlineBodyLimit = 512

    /// Header names whose examples are credentials, left out as a recording leaves them out.
    static let secretHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// A route's `response`: status, headers (the content type, documented headers with examples) and body.
    mutating func responseNode(_ response: OpenAPI.Response, status: Int, fixtureStem: String, at path: [String]) -> Node {
        var pairs: [(Node, Node)] = [("status", Node(String(status), Tag(.int)))]
        var headers: [(String, String)] = []
        var bodyPair: (Node, Node)?
        if let (type, content) = chosenContent(of: response, at: path) {
            let contentPath = path + ["content", type.rawValue]
            if let body = body(of: content, type: type, salt: fixtureStem, at: contentPath) {
                let json: Bool
                switch body {
                case .json: json = true
                case .text: json = false
                }
                let wildcard = type.rawValue.contains("*")
                headers.append(("Content-Type", wildcard ? (json ? "application/json" : "text/plain") : type.rawValue))
                bodyPair = bodyNode(body, type: type, fixtureStem: fixtureStem)
            }
        }
        headers += documentedHeaders(of: response, at: path)
        if !response.links.isEmpty {
            leaveOut(path + ["links"], "links describe requests a client may send next; each route answers on its own, whatever came before.")
        }
        if !headers.isEmpty {
            pairs.append(("headers", .mapping(.init(headers.map { (Node.scenarioText($0.0), Node.scenarioText($0.1)) }))))
        }
        if let bodyPair { pairs.append(bodyPair) }
        return .mapping(.init(pairs))
    }

    /// The media type whose body the route sends: `application/json`, else a `+json` type, else the first listed.
    private mutating func chosenContent(of response: OpenAPI.Response, at path: [String]) -> (OpenAPI.ContentType, OpenAPI.Content)? {
        let entries = Array(response.content)
        guard !entries.isEmpty else { return nil }
        let index = entries.firstIndex { $0.key.typeAndSubtype.lowercased() == "application/json" }
            ?? entries.firstIndex { Self.isJSON($0.key) }
            ?? 0
        let (type, maybeContent) = entries[index]
        for (other, _) in entries where other != type {
            leaveOut(path + ["content", other.rawValue], "a route sends one body; it sends the \(type.rawValue) one (content negotiation by Accept is not modelled).")
        }
        guard let content = resolveOrLeaveOut(maybeContent, at: path + ["content", type.rawValue]) else { return nil }
        return (type, content)
    }

    static func isJSON(_ type: OpenAPI.ContentType) -> Bool {
        let name = type.typeAndSubtype.lowercased()
        return name == "application/json" || name == "text/json" || name.hasSuffix("+json") || name == "*/*" || name == "application/*"
    }

    /// The body of `content`: its `example`, else its first `examples` entry (in the document's order), else its
    /// schema's examples, else (JSON only) a body generated from the schema.
    private mutating func body(of content: OpenAPI.Content, type: OpenAPI.ContentType, salt: String, at path: [String]) -> Body? {
        let json = Self.isJSON(type)
        if let example = content.example, let body = body(example, json: json, at: path + ["example"]) { return body }
        if let (key, maybeExample) = content.examples?.first {
            let examplePath = path + ["examples", key]
            if let example = resolveOrLeaveOut(maybeExample, at: examplePath) {
                if let value = example.dataOrLegacyValue, let body = body(value, json: json, at: examplePath + ["value"]) { return body }
                if let serialized = example.serializedValue { return .text(serialized) }
                if let external = example.externalValue {
                    leaveOut(examplePath + ["externalValue"], "the example lives at \(external.absoluteString), which an import does not fetch; the body comes from the schema instead.")
                }
            }
        }
        guard let schema = content.schema else {
            leaveOut(path, "the \(type.rawValue) response has neither an example nor a schema, so it is answered without a body; add an example.")
            return nil
        }
        guard json else {
            if let example = (try? document.components.lookup(schema))?.examples.first, let body = body(example, json: false, at: path + ["schema", "examples"]) {
                return body
            }
            leaveOut(path, "a \(type.rawValue) body is only sent from an example (bodies are generated for JSON only), so it is answered without a body; add an example.")
            return nil
        }
        var generator = SchemaExampleGenerator(components: document.components, seed: options.seed, salt: salt)
        let value = generator.value(for: schema)
        if generator.drewRandom { generatedAny = true }
        for pattern in generator.patternsNotFollowed {
            leaveOut(path + ["schema"], "a generated string does not follow the pattern \(pattern), which the import cannot draw text from (look-arounds, back-references, Unicode classes); give that schema an example.")
        }
        return .json(value)
    }

    /// An example value as a body: any JSON value for a JSON type; text as it is for other types.
    private mutating func body(_ example: AnyCodable, json: Bool, at path: [String]) -> Body? {
        guard let value = Self.jsonValue(example) else {
            leaveOut(path, "the example is not a JSON value; the body comes from the schema instead.")
            return nil
        }
        if json { return .json(value) }
        if case .string(let text) = value { return .text(text) }
        leaveOut(path, "the example of a body that is not JSON is not text; write it as the body's text.")
        return nil
    }

    /// An example OpenAPIKit decoded (any JSON or YAML value) as a ``Services/JSONValue``.
    static func jsonValue(_ value: AnyCodable) -> JSONValue? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONValue(json: data)
    }

    /// `body:` for a small body, `bodyFile:` (and the fixture) for a large one.
    private mutating func bodyNode(_ body: Body, type: OpenAPI.ContentType, fixtureStem: String) -> (Node, Node) {
        let inline: Node
        let bytes: Data
        let ext: String
        switch body {
        case .json(let value):
            bytes = value.jsonData
            ext = "json"
            switch value {
            // Text in `body:` is sent as written, so a JSON string or null is written as its JSON text.
            case .string, .null: inline = .scenarioText(String(decoding: bytes, as: UTF8.self))
            default: inline = .scenarioValue(value)
            }
        case .text(let text):
            bytes = Data(text.utf8)
            let name = type.typeAndSubtype.lowercased()
            ext = name.contains("xml") ? "xml" : name.contains("html") ? "html" : name.contains("csv") ? "csv" : "txt"
            inline = .scenarioText(text)
        }
        guard bytes.count > Self.inlineBodyLimit else { return ("body", inline) }
        var file = "fixtures/\(fixtureStem).\(ext)"
        var counter = 2
        while fixtures[file] != nil {
            file = "fixtures/\(fixtureStem)-\(counter).\(ext)"
            counter += 1
        }
        if case .json(let value) = body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let pretty = String(decoding: (try? encoder.encode(value)) ?? bytes, as: UTF8.self)
            // JSONEncoder writes an empty object or array over two lines; JSON text has no raw line break inside a
            // string, so a brace, a line break and blanks up to the closing brace can only be an empty one.
            let compacted = pretty.replacingOccurrences(of: #"\{\n\s*\}"#, with: "{}", options: .regularExpression)
                .replacingOccurrences(of: #"\[\n\s*\]"#, with: "[]", options: .regularExpression)
            fixtures[file] = Data((compacted + "\n").utf8)
        } else {
            fixtures[file] = bytes
        }
        return ("bodyFile", .scenarioText(file))
    }

    // MARK: Headers

    /// The response's documented headers that have an example, as text; the others listed.
    private mutating func documentedHeaders(of response: OpenAPI.Response, at path: [String]) -> [(String, String)] {
        var headers: [(String, String)] = []
        for (name, maybeHeader) in response.headers ?? [:] {
            let headerPath = path + ["headers", name]
            // The route sets the content type from the body it sends.
            guard name.lowercased() != "content-type", let header = resolveOrLeaveOut(maybeHeader, at: headerPath) else { continue }
            if Self.secretHeaders.contains(name.lowercased()), !options.keepSecrets {
                leaveOut(headerPath, "a credential header: its example is left out as a recording leaves credentials out (--keep-secrets keeps it).")
                continue
            }
            guard let example = headerExample(header), let value = Self.jsonValue(example) else {
                leaveOut(headerPath, "the header has no example, so the route does not send it; add `example:` to send it.")
                continue
            }
            let text: String = switch value {
            case .string(let string): string
            case .int(let number): String(number)
            case .double(let number): String(number)
            case .bool(let flag): flag ? "true" : "false"
            default: String(decoding: value.jsonData, as: UTF8.self)
            }
            headers.append((name, text))
        }
        return headers
    }

    private func headerExample(_ header: OpenAPI.Header) -> AnyCodable? {
        switch header.schemaOrContent {
        case .a(let context):
            if let example = context.example { return example }
            if let first = context.examples?.first, let example = resolve(first.value)?.dataOrLegacyValue { return example }
            return (try? document.components.lookup(context.schema)).flatMap { try? document.components.lookup($0) }?.examples.first
        case .b(let contentMap):
            guard let first = contentMap.first, let content = resolve(first.value) else { return nil }
            if let example = content.example { return example }
            return content.examples?.first.flatMap { resolve($0.value)?.dataOrLegacyValue }
        }
    }
}
