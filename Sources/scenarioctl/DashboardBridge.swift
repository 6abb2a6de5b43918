import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Services

/// Carries a browser's requests from a loopback TCP port to the daemon's Unix socket, for `scenarioctl dashboard`.
///
/// A browser is not a member of the socket's group, and any local user or web page can reach a loopback port, so
/// the bridge must not hand the socket's rights to them. The run's secrets travel only where no other server sees
/// them: the printed URL's fragment (which a browser never sends) carries a one-use link token, which the page trades
/// at once (`POST /bridge/tab`) for a tab token kept in the page's memory (sessionStorage, which is per origin and so
/// per port) and sent in an `Authorization` header on each API call; so the URL the browser's history keeps opens
/// nothing later (``DashboardTokens``). Not in a cookie: browsers send a `127.0.0.1` cookie to every port of that
/// host, so any local server could read it. The page's own files hold no secret and are served to anyone; every
/// `/v1/` call needs a tab token, and the `Host` and `Origin` must name this port (a page of another site, or one
/// reached through DNS rebinding, names another). Anything else is refused and never reaches the daemon. Written
/// here because no library bridges HTTP from TCP to a Unix socket with these checks.
struct DashboardBridge: HTTPResponder {
    typealias Context = BridgeRequestContext

    let tokens: DashboardTokens
    /// The port the bridge listens on, once known; requests are checked against it.
    let port: @Sendable () -> Int
    let daemon: DaemonLink

    func respond(to request: Request, context: Context) async throws -> Response {
        let origins = ["127.0.0.1:\(port())", "localhost:\(port())"]
        guard let host = request.head.authority, origins.contains(host) else {
            return Self.answer(.forbidden, .foreignOrigin, "this bridge answers requests for \(origins[0]) only, not for host '\(request.head.authority ?? "")'.")
        }
        if let origin = request.headers[.origin], !origins.map({ "http://\($0)" }).contains(origin) {
            return Self.answer(.forbidden, .foreignOrigin, "requests from pages of '\(origin)' are refused; only the dashboard's own pages may call the daemon.")
        }
        let path = request.uri.path
        if path == "/" { return Response(status: .seeOther, headers: [.location: "/dashboard/"]) }
        if path == "/dashboard" || path.hasPrefix("/dashboard/") {
            // The page, its script and style: the same files as in every copy of the binary, no secret in them.
            guard request.method == .get || request.method == .head else {
                return Self.answer(.methodNotAllowed, .methodNotAllowed, "the dashboard's files are read with GET only.")
            }
            return try await daemon.forward(request, kind: .read)
        }
        if path == "/bridge/tab" || path == "/bridge/link" {
            guard request.method == .post else {
                return Self.answer(.methodNotAllowed, .methodNotAllowed, "\(path) takes POST only.")
            }
            return path == "/bridge/tab" ? openTab(request) : mintLink(request)
        }
        guard path.hasPrefix("/v1/") else {
            return Self.answer(.notFound, .noSuchEndpoint, "the bridge carries /dashboard/, /bridge/ and /v1/ only.")
        }
        guard let given = Self.bearer(in: request.headers), tokens.isTab(given) else {
            return Self.refused("this bridge needs a tab's token in an Authorization header; open the URL this run of `scenarioctl dashboard` printed last (a token of an earlier run is refused).")
        }
        let kind: DaemonLink.Kind = request.method == .get || request.method == .head
            ? (path.hasSuffix("/events") ? .stream(until: BrowserLeftWatch.future(of: context.channel)) : .read) : .change
        return try await daemon.forward(request, kind: kind)
    }

    /// A JSON error body in the control API's shape, so the page shows the bridge's refusals as it shows the daemon's.
    static func answer(_ status: HTTPResponse.Status, _ code: APIErrorCode, _ message: String) -> Response {
        let body = (try? JSONEncoder.services.encode(APIErrorBody(code: code, message: message))) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Trades a link's token for a new tab's: the page calls this once, as it loads from a link.
    private func openTab(_ request: Request) -> Response {
        guard let link = Self.bearer(in: request.headers), let tab = tokens.openTab(with: link) else {
            return Self.refused("this link opened a tab already, has expired, or is not this bridge's: a link opens one tab, so a copy in the browser's history opens nothing. Open the URL `scenarioctl dashboard` printed last, or \"Open in a new tab\" in a dashboard tab.")
        }
        return Self.tokenAnswer(tab)
    }

    /// A one-use link's token for another tab, asked for by a tab with its own token.
    private func mintLink(_ request: Request) -> Response {
        guard let tab = Self.bearer(in: request.headers), tokens.isTab(tab) else {
            return Self.refused("only a dashboard tab of this bridge may open another; open the URL `scenarioctl dashboard` printed last.")
        }
        return Self.tokenAnswer(tokens.mintLink())
    }

    private static func tokenAnswer(_ token: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"token":"\#(token)"}"#)))
    }

    private static func refused(_ message: String) -> Response {
        var refusal = answer(.unauthorized, .tokenRefused, message)
        refusal.headers[.wwwAuthenticate] = #"Bearer realm="scenarioctl dashboard""#
        return refusal
    }

    /// The token of an `Authorization: Bearer TOKEN` header.
    private static func bearer(in headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
