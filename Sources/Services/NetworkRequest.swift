public import Foundation
// swift-http-types in the Model contract: a Model builds its requests and reads its responses with its types (the
// standard HTTP vocabulary of Swift on the server), so a team uses that package too.
public import HTTPTypes

/// An HTTP request as a Model hands it to the ``NetworkService``: the head from swift-http-types plus the body bytes.
public struct NetworkRequest: Sendable, Hashable {
    /// Method, URL (scheme, authority, path and query) and header fields.
    public var head: HTTPRequest
    /// The request body; empty when there is none.
    public var body: Data

    /// Creates a request.
    public init(head: HTTPRequest, body: Data = Data()) {
        self.head = head
        self.body = body
    }

    /// Creates a request for an absolute URL.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL; its query is kept as given.
    ///   - headerFields: Extra header fields.
    ///   - body: The body bytes.
    public init(method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data = Data()) {
        var head = HTTPRequest(method: method, scheme: url.scheme, authority: url.host.map { host in
            // URL gives an IPv6 literal without its brackets, which the authority needs back (RFC 3986 §3.2.2).
            let host = host.contains(":") ? "[\(host)]" : host
            return url.port.map { "\(host):\($0)" } ?? host
        }, path: Self.pathAndQuery(of: url))
        head.headerFields = headerFields
        self.init(head: head, body: body)
    }

    /// The absolute URL the request addresses, rebuilt from scheme, authority and path.
    public var url: String {
        "\(head.scheme ?? "http")://\(head.authority ?? "")\(head.path ?? "/")"
    }

    private static func pathAndQuery(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? "/"
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }
}
