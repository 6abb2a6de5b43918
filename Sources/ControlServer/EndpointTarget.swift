import Fakes
import Foundation

/// Where a request that reached a session endpoint goes: the URL the session's routes are matched against.
///
/// The endpoint speaks plain HTTP, as an origin server and as a forward proxy. A request with a `Scenario-URL` header
/// (what ScenarioURLProtocol sends) goes to that URL exactly; any other, in order:
/// 1. A request for a host the routes name (a proxy's `GET http://api.example.com/items`, or `Host: api.example.com`
///    set by the app) goes to that origin, with the scheme and port the routes give it: `https://api.example.com/items`.
/// 2. A request for another host than the endpoint's own (a proxy's request elsewhere) goes there as `http`.
/// 3. A request to the endpoint's own address whose first path segment is a host the routes name goes to that
///    origin with the segment removed: `/api.example.com/items` → `https://api.example.com/items`.
/// 4. Any other request to the endpoint's own address goes to the endpoint's `origin`, or else the first origin the
///    routes name: `/items` → `https://api.example.com/items`. With neither (a record or live scenario without routes)
///    it goes nowhere: sent on, it would come back to the endpoint.
///
/// A WebSocket handshake goes to the `ws`/`wss` form of the same origin (a host's `https` routes and its `wss` routes
/// are one origin), and to another host as `ws`.
struct EndpointTarget {
    /// The origins the session's routes name, in the order they are tried, each in the form the request asks for.
    var origins: [RouteOrigin]
    /// The endpoint's `origin`, when it was given one.
    var origin: RouteOrigin?
    /// Whether the request is a WebSocket handshake.
    var webSocket: Bool

    init(origins: [RouteOrigin], origin: RouteOrigin?, webSocket: Bool = false) {
        var seen = Set<RouteOrigin>()
        self.origins = origins.map { $0.forWebSocket(webSocket) }.filter { seen.insert($0).inserted }
        self.origin = origin?.forWebSocket(webSocket)
        self.webSocket = webSocket
    }

    /// The URL for a request with `authority` (its `Host`) and `target` (path and query); nil for a request to the
    /// endpoint's own address when no origin is known.
    func url(authority: String?, target: String) -> String? {
        let host = authority.map(Self.hostName) ?? ""
        let path = target.hasPrefix("/") ? target : "/\(target)"
        if let named = origins.first(where: { $0.host == host }) {
            return "\(named)\(path)"
        }
        if let authority, !authority.isEmpty, !Self.isOwnAddress(host) {
            return "\(webSocket ? "ws" : "http")://\(authority)\(path)"
        }
        let segment = path.dropFirst().prefix { $0 != "/" && $0 != "?" }
        if !segment.isEmpty, let named = origins.first(where: { $0.host == segment.lowercased() }) {
            let rest = path.dropFirst(1 + segment.count)
            return "\(named)\(rest.hasPrefix("/") ? "" : "/")\(rest)"
        }
        return (origin ?? origins.first).map { "\($0)\(path)" }
    }

    /// Whether `host` is the endpoint itself: a loopback name or address, as a client of a loopback port or a Unix
    /// socket writes it.
    static func isOwnAddress(_ host: String) -> Bool {
        host.isEmpty || host == "localhost" || host == "::1" || host.hasPrefix("127.") || host.hasSuffix(".localhost")
    }

    /// The host of an authority, lower case, without port or brackets.
    static func hostName(_ authority: String) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("["), let end = lowered.firstIndex(of: "]") {
            return String(lowered[lowered.index(after: lowered.startIndex)..<end])
        }
        return String(lowered.prefix { $0 != ":" })
    }
}
