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
/// the bridge must not hand the socket's rights to them. The run's secret travels only where no other server sees
/// it: in the printed URL's fragment (which a browser never sends), then in the page's memory (sessionStorage, which
/// is per origin and so per port), then in an `Authorization` header on each API call. Not in a cookie: browsers
/// send a `127.0.0.1` cookie to every port of that host, so any local server could read it. The page's own files
/// hold no secret and are served to anyone; every `/v1/` call needs the token, and the `Host` and `Origin` must name
/// this port (a page of another site, or one reached through DNS rebinding, names another). Anything else is
/// refused and never reaches the daemon. Written here because no library bridges HTTP from TCP to a Unix socket
/// with these checks.
struct DashboardBridge: HTTPResponder {
    typealias Context = BridgeRequestContext

    let token: String
    /// The port the bridge listens on, once known; requests are checked against it.
    let port: @Sendable () -> Int
    let daemon: DaemonLink

    func respond(to request: Request, context: Context) async throws -> Response {
        let origins = ["127.0.0.1:\(port())", "localhost:\(port())"]
        guard let host = request.head.authority, origins.contains(host) else {
            return Self.answer(.forbidden, "foreignOrigin", "this bridge answers requests for \(origins[0]) only, not for host '\(request.head.authority ?? "")'.")
        }
        if let origin = request.headers[.origin], !origins.map({ "http://\($0)" }).contains(origin) {
            return Self.answer(.forbidden, "foreignOrigin", "requests from pages of '\(origin)' are refused; only the dashboard's own pages may call the daemon.")
        }
        let path = request.uri.path
        if path == "/" { return Response(status: .seeOther, headers: [.location: "/dashboard/"]) }
        if path == "/dashboard" || path.hasPrefix("/dashboard/") {
            // The page, its script and style: the same files as in every copy of the binary, no secret in them.
            guard request.method == .get || request.method == .head else {
                return Self.answer(.methodNotAllowed, "methodNotAllowed", "the dashboard's files are read with GET only.")
            }
            return try await daemon.forward(request, kind: .read)
        }
        guard path.hasPrefix("/v1/") else {
            return Self.answer(.notFound, "noSuchEndpoint", "the bridge carries /dashboard/ and /v1/ only.")
        }
        guard let given = Self.bearer(in: request.headers), Self.same(given, token) else {
            var refusal = Self.answer(.unauthorized, "tokenRefused",
                "this bridge needs its own token in an Authorization header; open the URL this run of `scenarioctl dashboard` printed (a token of an earlier run is refused).")
            refusal.headers[.wwwAuthenticate] = #"Bearer realm="scenarioctl dashboard""#
            return refusal
        }
        let kind: DaemonLink.Kind = request.method == .get || request.method == .head
            ? (path.hasSuffix("/events") ? .stream(until: BrowserLeftWatch.future(of: context.channel)) : .read) : .change
        return try await daemon.forward(request, kind: kind)
    }

    /// A JSON error body in the control API's shape, so the page shows the bridge's refusals as it shows the daemon's.
    static func answer(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        let body = (try? JSONEncoder.services.encode(APIErrorBody(code: code, message: message))) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The token of an `Authorization: Bearer TOKEN` header.
    private static func bearer(in headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Compares in time that does not depend on where the texts differ, so the token cannot be guessed by timing.
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
