import Foundation

/// The scheme, host and port a route's URL names: what a session endpoint needs to turn a request made to its own
/// address (`GET /items`, `Host: 127.0.0.1:8080`) into the URL the routes expect.
public struct RouteOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`; `ws` or `wss` for a WebSocket route's.
    public var scheme: String
    /// The host, lower case; an IPv6 literal without its brackets.
    public var host: String
    /// The port when the URL gives one.
    public var port: Int?

    /// The origin of `url`, or nil when it is not an absolute http, https, ws or wss URL with a host.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              Self.webSocketSchemes.keys.contains(scheme) || Self.webSocketSchemes.values.contains(scheme),
              let host = components.host, !host.isEmpty else { return nil }
        self.scheme = scheme
        // URLComponents keeps an IPv6 literal's brackets; URL does not.
        self.host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = components.port
    }

    /// The WebSocket scheme of each HTTP scheme, of the same security.
    private static let webSocketSchemes = ["http": "ws", "https": "wss"]

    /// This origin for a WebSocket handshake (`ws`, `wss`) or for plain HTTP (`http`, `https`), as secure as it is:
    /// the routes of one host name `https://` for its requests and `wss://` for its sockets.
    public func forWebSocket(_ webSocket: Bool) -> RouteOrigin {
        var origin = self
        if webSocket {
            origin.scheme = Self.webSocketSchemes[scheme] ?? scheme
        } else if let plain = Self.webSocketSchemes.first(where: { $0.value == scheme })?.key {
            origin.scheme = plain
        }
        return origin
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
