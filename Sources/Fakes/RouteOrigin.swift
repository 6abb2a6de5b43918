import Foundation

/// The scheme, host and port a route's URL names: what a session endpoint needs to turn a request made to its own
/// address (`GET /items`, `Host: 127.0.0.1:8080`) into the URL the routes expect.
public struct RouteOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public var scheme: String
    /// The host, lower case; an IPv6 literal without its brackets.
    public var host: String
    /// The port when the URL gives one.
    public var port: Int?

    /// The origin of `url`, or nil when it is not an absolute http or https URL with a host.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return nil }
        self.scheme = scheme
        // URLComponents keeps an IPv6 literal's brackets; URL does not.
        self.host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = components.port
    }

    /// `scheme://host[:port]`, an IPv6 host in brackets.
    public var description: String {
        let authority = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(authority)\(port.map { ":\($0)" } ?? "")"
    }

    /// The start of a route's URL pattern that is literal text, unescaped: `https://api\.example\.com/items/\d+`
    /// gives `https://api.example.com/items/`. Stops at the first character a regular expression gives a meaning,
    /// except an unescaped `.`, which routes often write for the dot of a host name; a quantifier takes back the
    /// character it applies to (`https?://` gives `http`, naming no origin).
    public static func literalPrefix(of pattern: String) -> String {
        var literal = ""
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            if character == "\\" {
                guard let escaped = characters.next(), !escaped.isLetter, !escaped.isNumber else { break }
                literal.append(escaped)
            } else if "*+?{".contains(character) {
                if !literal.isEmpty { literal.removeLast() }
                break
            } else if "$()[]|".contains(character) {
                break
            } else if character == "^" {
                // A leading ^ anchors and says nothing of the URL.
                guard literal.isEmpty else { break }
            } else {
                literal.append(character)
            }
        }
        return literal
    }
}
