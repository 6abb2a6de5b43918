import ControlAPI
import Fakes
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import ScenarioHost
import Services

// What a session endpoint refuses before a request reaches the session's network, and where one it takes goes.
extension EndpointAnswer {
    /// A text answer: a head and its body.
    typealias Refusal = (head: HTTPResponse, body: ByteBuffer)

    /// The refusal of a request the endpoint does not take: a peer the access policy refuses, a CONNECT, a missing or
    /// wrong token. Nil for a request it takes, its token taken out of `fields`.
    func admission(of head: HTTPRequest, peer: PeerCredentials?, fields: inout HTTPFields) -> Refusal? {
        if let peer, !access.allows(peer) {
            logger.warning("refused \(head.method) \(head.path ?? "/") on the endpoint of session \(session.id) from \(peer)", metadata: peer.metadata)
            return Self.text(.forbidden, access.refusal(for: peer))
        }
        guard head.method != .connect else {
            return Self.text(.notImplemented, """
                A session endpoint does not tunnel TLS (CONNECT): send the app's requests as http:// through it; a host \
                the session's routes name gets the scheme and port the routes give it, so http://api.example.com/items \
                reaches the route for https://api.example.com/items.
                """)
        }
        guard let token else { return nil }
        switch token.check(&fields) {
        case .right: return nil
        case let given: return refusal(given, authority: head.authority)
        }
    }

    /// The URL the request stands for: its `Scenario-URL` (taken out of `fields`), else ``EndpointTarget``'s mapping;
    /// for a WebSocket handshake (`webSocket`), its `ws`/`wss` form.
    func destination(of head: HTTPRequest, fields: inout HTTPFields, target: String,
                     webSocket: Bool = false) async -> Result<URL, RefusalError> {
        let mapped: String?
        if let named = fields[Self.urlField] {
            fields[Self.urlField] = nil
            mapped = RouteOrigin(url: named).map { origin in
                // The same URL in the form the request asks for.
                origin.forWebSocket(webSocket).scheme + named.drop { $0 != ":" }
            } ?? named
        } else {
            do throws(HostError) {
                mapped = EndpointTarget(origins: try await session.routeOrigins(), origin: origin, webSocket: webSocket).url(authority: head.authority, target: target)
            } catch {
                return .failure(RefusalError(gone(error)))
            }
        }
        guard let mapped else {
            return .failure(RefusalError(Self.text(.misdirectedRequest, """
                session '\(session.id)': its routes name no origin that a request to the endpoint's own address \
                (\(head.authority ?? "no Host")) could stand for. Create the endpoint with an origin ("endpoint": \
                {"origin": "https://api.example.com"}, scenarioctl session new --origin), put the host first in the path \
                (/api.example.com/items), or send through the endpoint as a proxy.
                """)))
        }
        guard let url = URL(string: mapped), RouteOrigin(url: mapped) != nil else {
            return .failure(RefusalError(Self.text(.badRequest, "'\(mapped.prefix(200))' is not an absolute http, https, ws or wss URL; a Scenario-URL header names the whole URL the request stands for, such as https://api.example.com/items.")))
        }
        return .success(url)
    }

    /// A refusal as the failure of ``destination(of:fields:target:)``.
    struct RefusalError: Error {
        let refusal: Refusal
        init(_ refusal: Refusal) { self.refusal = refusal }
    }

    /// The session's refusal: 410 once it is deleted, 503 when it holds too much to take the request.
    func gone(_ error: HostError) -> Refusal {
        Self.text(error.code == .unknownSession ? .gone : .serviceUnavailable, "session '\(session.id)': \(error.message)")
    }

    /// 401 to a client of the endpoint's own address, 407 (with `Proxy-Authenticate`) to a proxy's client.
    func refusal(_ given: EndpointToken.Given, authority: String?) -> Refusal {
        let proxied = !EndpointTarget.isOwnAddress(authority.map(EndpointTarget.hostName) ?? "")
        let what = if case .wrong = given { "a wrong token" } else { "no token" }
        var response = Self.text(proxied ? .proxyAuthenticationRequired : .unauthorized, """
            The endpoint of session '\(session.id)' refuses a request with \(what): give the session's token (`scenarioctl \
            session show \(session.id)`, GET /v1/sessions/\(session.id)) as the Scenario-Token header, or as the password \
            of the proxy's credentials (http://scenariod:TOKEN@HOST:PORT; a browser takes it in its proxy settings).
            """)
        if proxied { response.head.headerFields[.proxyAuthenticate] = "Basic realm=\"scenariod session \(session.id)\"" }
        return response
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Refusal {
        let body = ByteBuffer(string: message + "\n")
        return (HTTPResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8", .contentLength: "\(body.readableBytes)"]), body)
    }
}
