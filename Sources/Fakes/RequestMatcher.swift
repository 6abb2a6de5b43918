import Foundation
import HTTPTypes
public import Services

/// Which requests a ``Route`` answers. Every field that is set must agree; unset fields match anything.
public struct RequestMatcher: Sendable {
    /// How the URL (scheme, authority and path, without the query) must look.
    public enum URLMatch: Sendable {
        /// Equal to this string.
        case exact(String)
        /// Wholly matched by this regular expression.
        case pattern(URLPattern)
    }

    /// The HTTP method, upper case.
    public var method: String?
    /// The URL without its query.
    public var url: URLMatch?
    /// Query items and how each must look; others may be present too.
    public var query: [String: ValueMatch]
    /// Header fields and how each must look (names compared case-insensitively).
    public var headers: [String: ValueMatch]
    /// A JSON value the request body must contain (see ``/Services/JSONValue/contains(_:)``).
    public var body: JSONValue?
    /// Fields of a JSON body, by JSON pointer (`/user/age`), and how each must look.
    public var bodyFields: [String: ValueMatch]
    /// The whole body as UTF-8 text, and how it must look: for bodies that are not JSON (a GraphQL query, a form, XML),
    /// or a JSON body's exact text. An empty body is absent.
    public var bodyText: ValueMatch?

    /// Creates a matcher.
    public init(method: String? = nil, url: URLMatch? = nil, query: [String: ValueMatch] = [:],
                headers: [String: ValueMatch] = [:], body: JSONValue? = nil, bodyFields: [String: ValueMatch] = [:],
                bodyText: ValueMatch? = nil) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyFields = bodyFields
        self.bodyText = bodyText
    }

    /// Where a request first differs from this matcher, or nil when it matches.
    /// - Returns: the mismatch and how many fields agreed before it, which ranks near misses.
    public func firstDifference(from request: NetworkRequest) -> (difference: NearMiss.Difference, fieldsMatched: Int)? {
        var matched = 0
        let actualMethod = request.head.method.rawValue
        if let method, method != actualMethod {
            return (.init(field: "/method", expected: method, actual: actualMethod), matched)
        }
        matched += 1
        let parts = RequestURLParts(request)
        switch url {
        case .exact(let expected) where expected != parts.base:
            return (.init(field: "/url", expected: expected, actual: parts.base), matched)
        case .pattern(let pattern) where !pattern.matches(parts.base):
            return (.init(field: "/url", expected: "pattern \(pattern.source)", actual: parts.base), matched)
        default: matched += 1
        }
        for (name, expected) in query.sorted(by: { $0.key < $1.key }) {
            let actual = parts.query[name]
            guard expected.matches(actual) else {
                return (.init(field: "/query/\(JSONValue.pointerToken(name))", expected: expected.description, actual: actual ?? "(absent)"), matched)
            }
            matched += 1
        }
        for (name, expected) in headers.sorted(by: { $0.key < $1.key }) {
            let actual = request.head.headerFields.first { $0.name.canonicalName == name.lowercased() }?.value
            guard expected.matches(actual) else {
                return (.init(field: "/headers/\(JSONValue.pointerToken(name.lowercased()))", expected: expected.description, actual: actual ?? "(absent)"), matched)
            }
            matched += 1
        }
        if let bodyText {
            let actual = request.body.isEmpty ? nil : String(decoding: request.body, as: UTF8.self)
            guard bodyText.matches(actual) else {
                return (.init(field: "/bodyText", expected: bodyText.description, actual: actual.map { String($0.prefix(200)) } ?? "(empty)"), matched)
            }
            matched += 1
        }
        guard body != nil || !bodyFields.isEmpty else { return nil }
        guard let actual = try? JSONValue(json: request.body) else {
            let shown = request.body.isEmpty ? "(empty)" : "(not JSON)"
            let expected = body.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? "a JSON body"
            return (.init(field: "/body", expected: expected, actual: shown), matched)
        }
        if let body, let difference = actual.firstDifference(from: body) {
            // The place that differed, not the whole body: a near miss should point at the field to fix.
            return (.init(field: "/body\(difference.pointer)", expected: difference.expected, actual: difference.actual), matched)
        }
        for (pointer, expected) in bodyFields.sorted(by: { $0.key < $1.key }) {
            let value = actual.value(at: pointer)
            guard expected.matches(value.map(\.matchText)) else {
                return (.init(field: "/body\(pointer)", expected: expected.description, actual: value.map(\.matchText) ?? "(absent)"), matched)
            }
            matched += 1
        }
        return nil
    }
}

/// A request's URL split the way matchers compare it.
struct RequestURLParts {
    /// Scheme, authority and path.
    let base: String
    /// Query items by name (the first wins when a name repeats), percent-decoded.
    let query: [String: String]

    init(_ request: NetworkRequest) {
        let path = request.head.path ?? "/"
        let (pathOnly, queryString) = path.firstIndex(of: "?").map {
            (String(path[..<$0]), String(path[path.index(after: $0)...]))
        } ?? (path, "")
        base = "\(request.head.scheme ?? "http")://\(request.head.authority ?? "")\(pathOnly)"
        var items: [String: String] = [:]
        var components = URLComponents()
        components.percentEncodedQuery = queryString
        for item in components.queryItems ?? [] where items[item.name] == nil {
            items[item.name] = item.value ?? ""
        }
        query = items
    }
}
