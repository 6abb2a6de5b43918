import Foundation
import ScenarioFormat
import Services
import Yams

extension WireMockImporter {
    /// A mapping's request as a route's `request` keys, with what the route's name is made of.
    struct TranslatedRequest {
        /// Nil when the request cannot be matched at all; the mapping is then left out (and listed).
        var matcher: [(Node, Node)]?
        var method: String?
        var path: String
    }

    /// WireMock's value matchers, by what they test (https://wiremock.org/docs/request-matching/).
    static let matcherNames = [
        "equalTo", "binaryEqualTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "equalToJson",
        "matchesJsonPath", "matchesJsonSchema", "equalToXml", "matchesXPath", "before", "after", "equalToDateTime",
        "hasExactly", "includes", "and", "or", "not",
    ]
    /// Keys that qualify a matcher rather than being one.
    static let matcherModifiers: Set<String> = [
        "caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements", "expression", "actualFormat", "expectedOffset",
        "expectedOffsetUnit", "truncateExpected", "truncateActual", "applyTruncationLast", "enablePlaceholders",
        "placeholderOpening", "placeholderClosing", "namespaces", "xPathNamespaces", "exemptedComparisons", "schemaVersion",
    ]
    /// Request keys WireMock has that a scenario's matcher cannot say; listed, and the route matches regardless.
    private static let unmatchableRequestKeys: [String: String] = [
        "cookies": "cookie matchers are not translated; the route matches any cookies (match the Cookie header with headers: if it matters).",
        "pathParameters": "path parameter matchers are not translated; the template's parameters match any segment.",
        "formParameters": "form body matchers are not translated; scenarios match JSON bodies only, so the route matches any body.",
        "multipartPatterns": "multipart matchers are not translated; scenarios match JSON bodies only, so the route matches any body.",
        "host": "a host matcher is not translated; the route's URL uses the import's base URL (--base-url).",
        "port": "a port matcher is not translated; the route's URL uses the import's base URL (--base-url).",
        "scheme": "a scheme matcher is not translated; the route's URL uses the import's base URL (--base-url).",
        "clientIp": "a client address matcher is not translated; a scenario has one client, the Model.",
        "customMatcher": "a custom matcher is Java code in the WireMock server; the route matches without it.",
    ]
    private static let urlKeys = ["url", "urlPath", "urlPathPattern", "urlPattern", "urlPathTemplate"]

    static func translateRequest(_ request: [String: JSONValue], place: Place, context: inout Context) throws(ImportError) -> TranslatedRequest {
        var method: String?
        switch request["method"] {
        case nil, .string("ANY")?: break
        case .string(let name)? where !name.isEmpty && name.allSatisfy({ $0.isASCII && $0.isLetter }): method = name.uppercased()
        case let other?: throw place.child("method").error("'method' must be an HTTP method such as GET, or ANY, got \(other.typeName).")
        }
        let given = urlKeys.filter { request[$0] != nil }
        guard given.count <= 1 else {
            throw place.error("the request has \(given.joined(separator: " and ")); WireMock takes one way to match the URL, keep one.")
        }
        var pairs: [(Node, Node)] = []
        if let method { pairs.append((Node("method"), Node(method))) }
        var query: [String: Node] = [:]
        var path = "/"
        if let key = given.first {
            let urlPlace = place.child(key)
            guard case .string(let value) = request[key]! else {
                throw urlPlace.error("'\(key)' must be text (a path such as /items), got \(request[key]!.typeName).")
            }
            guard let url = translateURL(key: key, value: value, place: urlPlace, query: &query, context: &context) else {
                return TranslatedRequest(matcher: nil, method: method, path: value)
            }
            pairs.append(url.pair)
            path = url.path
        }
        if let parameters = request["queryParameters"] {
            let parametersPlace = place.child("queryParameters")
            for (name, value) in try members(parameters, place: parametersPlace) {
                if let match = try valueMatch(value, place: parametersPlace.child(name), secret: false, context: &context) { query[name] = match }
            }
        }
        if !query.isEmpty { pairs.append((Node("query"), .mapping(.init(query.keys.sorted().map { (Node.scenarioText($0), query[$0]!) })))) }
        var headers: [String: Node] = [:]
        if let fields = request["headers"] {
            let headersPlace = place.child("headers")
            for (name, value) in try members(fields, place: headersPlace) {
                let secret = ["authorization", "cookie"].contains(name.lowercased())
                if let match = try valueMatch(value, place: headersPlace.child(name), secret: secret, context: &context) { headers[name] = match }
            }
        }
        if let credentials = request["basicAuthCredentials"] {
            let credentialsPlace = place.child("basicAuthCredentials")
            guard case .object(let fields) = credentials, case .string(let user)? = fields["username"], case .string(let password)? = fields["password"] else {
                throw credentialsPlace.error("'basicAuthCredentials' must be {\"username\": …, \"password\": …}, both text.")
            }
            headers.removeValue(forKey: headers.keys.first { $0.lowercased() == "authorization" } ?? "")
            if context.options.keepSecrets {
                headers["Authorization"] = Node.scenarioText("Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
            } else {
                headers["Authorization"] = presentNode
                context.leftOutSecrets = true
            }
        }
        if !headers.isEmpty { pairs.append((Node("headers"), .mapping(.init(headers.keys.sorted().map { (Node.scenarioText($0), headers[$0]!) })))) }
        if let patterns = request["bodyPatterns"] {
            pairs += try bodyMatchers(patterns, place: place.child("bodyPatterns"), context: &context)
        }
        let handled: Set<String> = Set(urlKeys + ["method", "queryParameters", "headers", "basicAuthCredentials", "bodyPatterns"])
        for key in request.keys.sorted() where !handled.contains(key) {
            context.dropCondition(place.child(key), unmatchableRequestKeys[key] ?? "'\(key)' is not a request key scenarioctl knows; the route matches without it.")
        }
        if !context.droppedConditions.isEmpty {
            for (place, reason) in context.droppedConditions {
                context.note(place, "the mapping was left out, as a route without this condition would answer requests WireMock refuses: \(reason)")
            }
            context.droppedConditions = []
            return TranslatedRequest(matcher: nil, method: method, path: path)
        }
        return TranslatedRequest(matcher: pairs, method: method, path: path)
    }

    // MARK: URLs

    /// WireMock's URL as `url` or `urlPattern` on the base URL; nil (the mapping left out, and listed) when the
    /// pattern tests the query, which a scenario's URL matchers never see.
    private static func translateURL(key: String, value: String, place: Place, query: inout [String: Node],
                                     context: inout Context) -> (pair: (Node, Node), path: String)? {
        let base = context.base
        let rooted = value.hasPrefix("/") ? value : "/" + value
        switch key {
        case "url":
            // `url` is the path and query exactly; the query goes to `query`, which also accepts extra items.
            let parts = rooted.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 {
                var seen: Set<String> = []
                for item in parts[1].split(separator: "&") {
                    let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = decoded(String(pair[0]))
                    let itemValue = pair.count == 2 ? decoded(String(pair[1])) : ""
                    if seen.insert(name).inserted {
                        query[name] = Node.scenarioText(itemValue)
                    } else {
                        context.note(place, "the query repeats '\(name)'; a scenario's query matches one value per name, so only the first ('\(query[name]?.scalar?.string ?? "")') is matched.")
                    }
                }
                context.note(place, "WireMock's url matched this query exactly; the route's query also accepts requests with more query items. Add a route before it for any such request that must be told apart.")
            }
            let path = String(parts[0])
            return ((Node("url"), Node.scenarioText(base + path)), path)
        case "urlPath":
            return ((Node("url"), Node.scenarioText(base + rooted)), rooted)
        case "urlPathPattern":
            let pattern = value.hasPrefix("^") ? String(value.dropFirst()) : value
            return ((Node("urlPattern"), Node.scenarioText(escapedRegex(base) + pattern)), pattern)
        case "urlPathTemplate":
            // `/items/{id}`: each `{name}` is one path segment.
            var pattern = ""
            var literal = ""
            var rest = Substring(rooted)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                literal += rest[..<open]
                pattern += escapedRegex(literal) + "[^/]+"
                literal = ""
                rest = rest[rest.index(after: close)...]
            }
            pattern += escapedRegex(String(rest))
            // The route is named after the literal segments: `/items/{id}` → get-items.
            let named = rooted.split(separator: "/").filter { !$0.contains("{") }.joined(separator: "/")
            return ((Node("urlPattern"), Node.scenarioText(escapedRegex(base) + pattern)), "/" + named)
        default:
            // `urlPattern` is tried on the path with its query; a route's urlPattern sees the URL without it. A pattern
            // that spells a query (`\?`, or `name=`) cannot be moved over; one ending `.*` matches alike either way.
            let pattern = value.hasPrefix("^") ? String(value.dropFirst()) : value
            if pattern.contains("\\?") || pattern.contains("?.*=") || pattern.contains("=") {
                context.note(place, "the mapping was left out: its urlPattern matches the query too, and a route's urlPattern sees the URL without its query. Rewrite it as urlPathPattern plus queryParameters, or write the route by hand with urlPattern and query.")
                return nil
            }
            if !pattern.hasSuffix(".*") {
                context.note(place, "WireMock tried this urlPattern on the path with its query, the route tries it on the path alone: requests with a query the pattern did not allow match this route too.")
            }
            return ((Node("urlPattern"), Node.scenarioText(escapedRegex(base) + pattern)), pattern)
        }
    }

    private static func decoded(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }

    /// `text` as a regular expression that matches exactly it.
    static func escapedRegex(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    // MARK: Value matchers

    static var presentNode: Node { .mapping(.init([(Node("present"), Node("true", Tag(.bool)))])) }

    private static func matchNode(_ kind: String, _ value: String) -> Node {
        .mapping(.init([(Node(kind), Node.scenarioText(value))]))
    }

    /// The members of a JSON object, by name; anything else is an error at `place`.
    static func members(_ value: JSONValue, place: Place) throws(ImportError) -> [(String, JSONValue)] {
        guard case .object(let members) = value else {
            throw place.error("expected an object of names to matchers ({\"X-Thing\": {\"equalTo\": \"yes\"}}), got \(value.typeName).")
        }
        return members.keys.sorted().map { ($0, members[$0]!) }
    }

    /// The one matcher a WireMock matcher object names (`equalTo`, `matches`, …), besides its modifiers.
    /// - Throws: ``ImportError`` at `place` when it names a matcher WireMock does not have, or none, or several.
    static func matcherName(_ object: [String: JSONValue], place: Place) throws(ImportError) -> String {
        let unknown = object.keys.sorted().filter { !matcherNames.contains($0) && !matcherModifiers.contains($0) }
        if let first = unknown.first {
            throw place.error("'\(first)' is not a WireMock matcher; WireMock's are \(matcherNames.joined(separator: ", ")). Fix the mapping's spelling.")
        }
        let named = object.keys.sorted().filter { matcherNames.contains($0) }
        guard named.count == 1 else {
            throw place.error(named.isEmpty ? "the matcher names no way to match; give one of \(matcherNames.joined(separator: ", "))."
                : "the matcher names \(named.joined(separator: " and ")); WireMock takes one per object (combine them with \"and\").")
        }
        return named[0]
    }

    /// Why a matcher a query item or header cannot have was left out, and what to do.
    private static func unmatchableReason(_ name: String) -> String {
        let what = switch name {
        case "doesNotMatch", "doesNotContain", "not": "scenario matchers cannot say what a value must not be"
        case "equalToXml", "matchesXPath": "scenario matchers read text and JSON, not XML"
        case "before", "after", "equalToDateTime": "scenario matchers compare text and numbers, not dates"
        case "hasExactly", "includes": "a scenario matches one value per name, not a list of them"
        case "and", "or": "scenario matchers cannot combine matches"
        default: "'\(name)' has no scenario equivalent here"
        }
        return "\(what) ('\(name)'); the route matches any value here, so it answers requests WireMock would not. Split the route by hand if it must tell them apart."
    }

    /// A query item's or header's matcher as a scenario match; nil when it has none (the part is listed).
    private static func valueMatch(_ value: JSONValue, place: Place, secret: Bool, context: inout Context) throws(ImportError) -> Node? {
        guard case .object(let object) = value else {
            throw place.error("expected a matcher object such as {\"equalTo\": \"…\"}, got \(value.typeName).")
        }
        let name = try matcherName(object, place: place)
        let operand = object[name]!
        let text: String? = switch operand {
        case .string(let string): string
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
        let translatable = ["equalTo", "contains", "matches"]
        if translatable.contains(name), secret, !context.options.keepSecrets {
            context.leftOutSecrets = true
            return presentNode
        }
        switch name {
        case "equalTo":
            guard let text else { throw place.child(name).error("'equalTo' must be text, got \(operand.typeName).") }
            if object["caseInsensitive"] == .bool(true) { return matchNode("regex", "(?i)" + escapedRegex(text)) }
            return Node.scenarioText(text)
        case "contains", "matches":
            guard let text else { throw place.child(name).error("'\(name)' must be text, got \(operand.typeName).") }
            if object["caseInsensitive"] == .bool(true) {
                return matchNode("regex", "(?i)" + (name == "contains" ? ".*" + escapedRegex(text) + ".*" : text))
            }
            return matchNode(name == "contains" ? "contains" : "regex", text)
        case "absent":
            return .mapping(.init([(Node(operand == .bool(false) ? "present" : "absent"), Node("true", Tag(.bool)))]))
        default:
            context.dropCondition(place, unmatchableReason(name))
            return nil
        }
    }

    // MARK: Bodies

    /// `bodyPatterns` as `body` (one equalToJson), `bodyFields` (matchesJsonPath on simple paths) and `bodyText` (one
    /// matcher of the raw body: equalTo, contains, matches, absent).
    private static func bodyMatchers(_ patterns: JSONValue, place: Place, context: inout Context) throws(ImportError) -> [(Node, Node)] {
        guard case .array(let items) = patterns else {
            throw place.error("'bodyPatterns' must be a list of matchers, got \(patterns.typeName).")
        }
        var body: JSONValue?
        var bodyText: Node?
        var fields: [(String, Node)] = []
        for (index, item) in items.enumerated() {
            let itemPlace = place.child(index)
            guard case .object(let object) = item else {
                throw itemPlace.error("a body pattern must be a matcher object such as {\"equalToJson\": {…}}, got \(item.typeName).")
            }
            let name = try matcherName(object, place: itemPlace)
            switch name {
            case "equalToJson":
                var expected = object[name]!
                if case .string(let text) = expected {
                    do {
                        expected = try JSONValue(strictJSON: Data(text.utf8))
                    } catch {
                        throw itemPlace.child(name).error("the JSON in this string does not parse (\(error.description)); WireMock would refuse it too.")
                    }
                }
                if body != nil {
                    context.dropCondition(itemPlace, "a second equalToJson; a route has one body to match, so only the first is matched.")
                } else if String(decoding: expected.jsonData, as: UTF8.self).contains("${json-unit.") {
                    context.dropCondition(itemPlace, "JSON placeholders (${json-unit.…}) have no scenario equivalent; the route matches any body. Use bodyFields with regex matches for the fields that matter.")
                } else {
                    body = expected
                    if object["ignoreExtraElements"] != .bool(true) {
                        context.note(itemPlace, "a route's body matches by subset: requests whose JSON has fields beyond these match too, where WireMock's equalToJson refused them.")
                    }
                    if object["ignoreArrayOrder"] == .bool(true) {
                        context.note(itemPlace, "ignoreArrayOrder is not translated: a route's body matches lists in order, so requests with the items reordered do not match.")
                    }
                }
            case "matchesJsonPath":
                if let field = try jsonPathField(object[name]!, place: itemPlace.child(name), context: &context) {
                    fields.append(field)
                }
            case "equalTo", "contains", "matches", "absent", "doesNotMatch", "doesNotContain":
                // The raw body as text: one `bodyText` per route.
                if bodyText != nil {
                    context.dropCondition(itemPlace, "a second matcher of the body's text; a route has one bodyText. Join them into one matches: regular expression by hand.")
                } else if let match = try valueMatch(item, place: itemPlace, secret: false, context: &context) {
                    bodyText = match
                }
            case "binaryEqualTo":
                context.dropCondition(itemPlace, "'binaryEqualTo' compares bytes; a route's bodyText compares UTF-8 text. Write a bodyText match by hand if the body is text.")
            default:
                context.dropCondition(itemPlace, "'\(name)' on the body is not translated (scenarios match JSON bodies by value or by field); the route matches any body.")
            }
        }
        var pairs: [(Node, Node)] = []
        if let bodyText { pairs.append((Node("bodyText"), bodyText)) }
        if let body { pairs.append((Node("body"), Node.scenarioValue(body))) }
        if !fields.isEmpty {
            var seen: Set<String> = []
            let unique = fields.filter { seen.insert($0.0).inserted }
            pairs.append((Node("bodyFields"), .mapping(.init(unique.map { (Node.scenarioText($0.0), $0.1) }))))
        }
        return pairs
    }

    /// A `matchesJsonPath` as a `bodyFields` entry: `$.a.b` must be present, or `{expression, equalTo|contains|…}`.
    private static func jsonPathField(_ value: JSONValue, place: Place, context: inout Context) throws(ImportError) -> (String, Node)? {
        let expression: String
        var match = presentNode
        switch value {
        case .string(let text):
            expression = text
        case .object(let object):
            guard case .string(let text)? = object["expression"] else {
                throw place.error("a matchesJsonPath object needs 'expression' (a JSONPath such as $.name) and a matcher.")
            }
            expression = text
            var rest = object
            rest.removeValue(forKey: "expression")
            let name = try matcherName(rest, place: place)
            guard ["equalTo", "contains", "matches", "absent"].contains(name) else {
                context.dropCondition(place, unmatchableReason(name).replacingOccurrences(of: "any value here", with: "any value of \(text)"))
                return nil
            }
            guard let node = try valueMatch(.object(rest), place: place, secret: false, context: &context) else { return nil }
            match = node
        default:
            throw place.error("'matchesJsonPath' must be a JSONPath (text) or {\"expression\": …, \"equalTo\": …}, got \(value.typeName).")
        }
        guard let pointer = jsonPointer(expression) else {
            context.dropCondition(place, "the JSONPath '\(expression)' is not a plain field path ($.a.b, $.items[0].id): filters, wildcards and deep scans have no bodyFields equivalent, so the route matches any body here.")
            return nil
        }
        return (pointer, match)
    }

    /// `$.items[0].id` → `/items/0/id`; nil for anything but names and indexes (filters, wildcards, `..`).
    static func jsonPointer(_ path: String) -> String? {
        guard path.hasPrefix("$") else { return nil }
        var rest = Substring(path.dropFirst())
        var tokens: [String] = []
        let nameCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-"))
        while let first = rest.first {
            if first == ".", !rest.hasPrefix("..") {
                rest = rest.dropFirst()
                let name = rest.prefix { $0.unicodeScalars.allSatisfy(nameCharacters.contains) }
                guard !name.isEmpty else { return nil }
                tokens.append(String(name))
                rest = rest.dropFirst(name.count)
            } else if first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let number = Int(inside), number >= 0 {
                    tokens.append(String(number))
                } else if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"", inside.last == quote {
                    tokens.append(String(inside.dropFirst().dropLast()))
                } else {
                    return nil
                }
                rest = rest[rest.index(after: close)...]
            } else {
                return nil
            }
        }
        guard !tokens.isEmpty else { return nil }
        return tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }
}
