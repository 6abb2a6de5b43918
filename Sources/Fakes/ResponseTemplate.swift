package import Foundation
package import HTTPTypes
package import Mustache
package import Services

/// A route's response whose body, header values and stream chunks are Mustache templates (`template: true`), filled per request
/// from the request and the session's virtual clock, so answers stay deterministic.
///
/// What a template can read: `request.method`, `request.url`, `request.path` (and its segments `request.path.0`,
/// `request.path.1`…), `request.query.NAME`, `request.headers.NAME` (as sent or in lower case), `request.body`
/// (its JSON fields, `request.body.user.name`, or its text), and `now` (the virtual time the request arrived,
/// ISO 8601) with `now.date`, `now.time`, `now.epochSeconds`, `now.epochMilliseconds` and `now.httpDate`. A value
/// that is missing renders as nothing. In a JSON body, text is escaped as inside a JSON string.
package struct ResponseTemplate: Sendable {
    /// The body's template, or nil when the body is sent as written.
    package var body: MustacheTemplate?
    /// Whether the body is JSON, so text put into it is escaped as in a JSON string.
    package var bodyIsJSON: Bool
    /// Header values that are templates, by name.
    package var headers: [HTTPField.Name: MustacheTemplate]
    /// A streamed answer's chunks that are templates, by their index in its script.
    package var chunks: [Int: ChunkTemplate] = [:]

    /// The names a template may start from, outside a section.
    package static let roots = ["request", "now"]

    /// Creates a template of a response.
    package init(body: MustacheTemplate?, bodyIsJSON: Bool, headers: [HTTPField.Name: MustacheTemplate]) {
        self.body = body
        self.bodyIsJSON = bodyIsJSON
        self.headers = headers
    }

    /// Whether nothing is templated.
    package var isEmpty: Bool { body == nil && headers.isEmpty && chunks.isEmpty }

    /// `response` with its templated parts filled from `request`, which arrived at `now` on the session's clock.
    package func render(over response: NetworkResponse, request: NetworkRequest, now: Date) -> NetworkResponse {
        var rendered = response
        if let body {
            let escape: @Sendable (String) -> String = bodyIsJSON ? Self.jsonEscaped : Self.unescaped
            let context = Self.context(request, now: now, escape: escape)
            let text: String = body.render(context, library: nil)
            rendered.body = Data(text.utf8)
        }
        if !headers.isEmpty {
            let context = Self.context(request, now: now, escape: Self.unescaped)
            for (name, template) in headers {
                // A header value is one line: a template that renders a line break would make the response invalid.
                let text: String = template.render(context, library: nil)
                rendered.head.headerFields[name] = text.filter { $0 != "\r" && $0 != "\n" }
            }
        }
        return rendered
    }

    /// Compiles `text`; swift-mustache escapes for HTML by default, and the TEXT pragma turns that off, because
    /// escaping here is the context's (JSON or none).
    /// - Throws: ``CompileError`` with the line and column in `text`.
    package static func compile(_ text: String) throws(CompileError) -> MustacheTemplate {
        let pragma = "{{% CONTENT_TYPE: TEXT}}"
        do {
            return try MustacheTemplate(string: pragma + text)
        } catch let error as MustacheTemplate.ParserError {
            let context = error.context
            let column = context.lineNumber == 1 ? max(1, context.columnNumber - pragma.count) : context.columnNumber
            throw CompileError(message: Self.describe(error.error), line: context.lineNumber, column: column)
        } catch {
            throw CompileError(message: "\(error)", line: 1, column: 1)
        }
    }

    /// Names a template reads outside any section whose first part is not one of ``roots`` (`requst.path`): they
    /// would always render as nothing. Inside a section, names are relative to what the section opened.
    package static func unknownNames(in text: String) -> [String] {
        guard !text.contains("{{=") else { return [] } // other delimiters: the check would misread the tags
        var depth = 0
        var unknown: [String] = []
        for match in text.matches(of: /\{\{([#^\/&{]?)\s*([^}]*?)\s*\}?\}\}/) {
            let sigil = String(match.1), name = String(match.2)
            if sigil == "/" { depth = max(0, depth - 1); continue }
            // A transform is written `f(name)`; the name is inside the innermost parentheses.
            let bare = name.split(whereSeparator: { "()".contains($0) }).last.map(String.init) ?? name
            let root = bare.split(separator: ".").first.map(String.init) ?? bare
            if depth == 0, !bare.isEmpty, bare != ".", !roots.contains(root), !unknown.contains(bare) { unknown.append(bare) }
            if sigil == "#" || sigil == "^" { depth += 1 }
        }
        return unknown
    }

    /// Why a template does not compile, and where in its text.
    package struct CompileError: Error, Sendable {
        /// What is wrong, in words (`a section is never closed; end it with {{/NAME}}`).
        package var message: String
        /// The 1-based line of the template's text where it was found.
        package var line: Int
        /// The 1-based column of that line.
        package var column: Int
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect?: "a section is closed with another name than it was opened with"
        case .unfinishedName?: "a tag is not finished; close it with }}"
        case .expectedSectionEnd?: "a section is never closed; end it with {{/NAME}}"
        case .invalidSetDelimiter?: "a set-delimiter tag is malformed"
        case .invalidConfigVariableSyntax?, .unrecognisedConfigVariable?: "a {{% pragma }} tag is not one Mustache knows"
        default: "\(error)"
        }
    }

    /// What a template sees for `request` at `now`.
    static func context(_ request: NetworkRequest, now: Date, escape: @escaping @Sendable (String) -> String) -> [String: Any] {
        let url = URLComponents(string: request.url)
        var query: [String: Any] = [:]
        for item in url?.queryItems ?? [] where query[item.name] == nil { query[item.name] = Text(item.value ?? "", escape) }
        var headers: [String: Any] = [:]
        for field in request.head.headerFields {
            headers[field.name.rawName] = Text(field.value, escape)
            headers[field.name.canonicalName] = Text(field.value, escape)
        }
        let body: Any = (try? JSONValue(json: request.body)).map { value(of: $0, escape) } ?? Text(String(decoding: request.body, as: UTF8.self), escape)
        let requestContext: [String: Any] = [
            "method": Text(request.head.method.rawValue, escape),
            "url": Text(request.url, escape),
            "path": Path(text: url?.percentEncodedPath ?? "", escape: escape),
            "query": query,
            "headers": headers,
            "body": body,
        ]
        return ["request": requestContext, "now": Instant(date: now, escape: escape)]
    }

    /// A JSON value as a template sees it: objects and arrays to walk, text escaped, numbers and booleans as written.
    private static func value(of json: JSONValue, _ escape: @escaping @Sendable (String) -> String) -> Any {
        switch json {
        case .object: Object(json: json, escape: escape)
        case .array(let elements): elements.map { value(of: $0, escape) }
        case .string(let text): Text(text, escape)
        case .int(let number): number
        case .double(let number): number
        case .bool(let flag): flag
        case .null: Text("null", Self.unescaped)
        }
    }

    /// Text as it is.
    @Sendable static func unescaped(_ text: String) -> String { text }

    /// Text as it goes inside a JSON string: quotes, backslashes and control characters escaped.
    @Sendable static func jsonEscaped(_ text: String) -> String {
        let quoted = String(decoding: JSONValue.string(text).jsonData, as: UTF8.self)
        return String(quoted.dropFirst().dropLast())
    }

    /// Text that renders escaped for where it goes.
    struct Text: MustacheCustomRenderable {
        let text: String
        let escape: @Sendable (String) -> String
        init(_ text: String, _ escape: @escaping @Sendable (String) -> String) {
            self.text = text
            self.escape = escape
        }
        var renderText: String { escape(text) }
        var isNull: Bool { false }
    }

    /// A JSON object of the request's body: its fields by name, and its compact JSON when rendered whole.
    struct Object: MustacheCustomRenderable, MustacheParent {
        let json: JSONValue
        let escape: @Sendable (String) -> String
        var renderText: String { escape(String(decoding: json.jsonData, as: UTF8.self)) }
        var isNull: Bool { false }
        func child(named name: String) -> Any? {
            guard case .object(let members) = json, let member = members[name] else { return nil }
            return ResponseTemplate.value(of: member, escape)
        }
    }

    /// The request's path, which renders whole and has its segments by index (`request.path.0`).
    struct Path: MustacheCustomRenderable, MustacheParent {
        let text: String
        let escape: @Sendable (String) -> String
        var renderText: String { escape(text) }
        var isNull: Bool { false }
        func child(named name: String) -> Any? {
            let segments = text.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
            return Int(name).flatMap { segments.indices.contains($0) ? Text(segments[$0], escape) : nil }
        }
    }

    /// The virtual now, which renders as ISO 8601 and has other forms by name (`now.epochSeconds`).
    struct Instant: MustacheCustomRenderable, MustacheParent {
        let date: Date
        let escape: @Sendable (String) -> String
        var renderText: String { InstantText.format(date) }
        var isNull: Bool { false }
        func child(named name: String) -> Any? {
            let iso = InstantText.format(date)
            switch name {
            case "iso8601": return iso
            case "date": return String(iso.prefix(10))
            case "time": return String(iso.dropFirst(11).prefix(8))
            case "epochSeconds": return Int(date.timeIntervalSince1970.rounded(.down))
            case "epochMilliseconds": return Int((date.timeIntervalSince1970 * 1000).rounded(.down))
            case "httpDate": return Self.httpDate.string(from: date)
            default: return nil
            }
        }

        /// RFC 9110's IMF-fixdate, as in `Date` and `Last-Modified` headers.
        private static var httpDate: DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter
        }
    }
}
