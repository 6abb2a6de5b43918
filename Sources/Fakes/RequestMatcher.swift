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
    /// Query items that must be present with these values; others may be present too.
    public var query: [String: String]
    /// Header fields that must be present with these values (names compared case-insensitively).
    public var headers: [String: String]
    /// A JSON value the request body must contain (see ``Services/JSONValue/contains(_:)``).
    public var body: JSONValue?

    /// Creates a matcher.
    public init(method: String? = nil, url: URLMatch? = nil, query: [String: String] = [:],
                headers: [String: String] = [:], body: JSONValue? = nil) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Where a request first differs from this matcher, or nil when it matches.
    /// - Returns: the mismatch and how many fields agreed before it, which ranks near misses.
    public func firstDifference(from request: NetworkRequest) -> (difference: NearMiss.Difference, fieldsMatched: Int)? {
        var matched = 0
        let actualMethod = request.head.method.rawValue
        if let method, method != actualMethod {
            return (.init(field: "method", expected: method, actual: actualMethod), matched)
        }
        matched += 1
        let parts = RequestURLParts(request)
        switch url {
        case .exact(let expected) where expected != parts.base:
            return (.init(field: "url", expected: expected, actual: parts.base), matched)
        case .pattern(let pattern) where !pattern.matches(parts.base):
            return (.init(field: "url", expected: "pattern \(pattern.source)", actual: parts.base), matched)
        default: matched += 1
        }
        for (name, expected) in query.sorted(by: { $0.key < $1.key }) {
            let actual = parts.query[name]
            guard actual == expected else {
                return (.init(field: "query.\(name)", expected: expected, actual: actual ?? "(absent)"), matched)
            }
            matched += 1
        }
        for (name, expected) in headers.sorted(by: { $0.key < $1.key }) {
            let actual = request.head.headerFields.first { $0.name.canonicalName == name.lowercased() }?.value
            guard actual == expected else {
                return (.init(field: "headers.\(name)", expected: expected, actual: actual ?? "(absent)"), matched)
            }
            matched += 1
        }
        if let body {
            guard let actual = try? JSONValue(json: request.body) else {
                let shown = request.body.isEmpty ? "(empty)" : "(not JSON)"
                return (.init(field: "body", expected: String(decoding: body.jsonData, as: UTF8.self), actual: shown), matched)
            }
            guard actual.contains(body) else {
                return (.init(field: "body", expected: String(decoding: body.jsonData, as: UTF8.self),
                              actual: String(decoding: actual.jsonData, as: UTF8.self)), matched)
            }
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
