import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Carries a browser's requests from a loopback TCP port to the daemon's Unix socket, for `scenarioctl dashboard`.
///
/// A browser is not a member of the socket's group, and any local user or web page can reach a loopback port, so
/// the bridge must not hand the socket's rights to them: it answers only requests that carry the run's secret (from
/// the printed URL, then as a cookie, as Jupyter does) and whose `Host` and `Origin` name this port (a page of
/// another site, or one reached through DNS rebinding, names another). Anything else gets 403 and never reaches the
/// daemon. Written here because no library bridges HTTP from TCP to a Unix socket with these checks.
struct DashboardBridge: HTTPResponder {
    typealias Context = BasicRequestContext

    /// The cookie that carries the token once the browser has opened the printed URL.
    static let cookieName = "scenariod_dashboard"

    let socketPath: String
    let token: String
    /// The port the bridge listens on, once known; requests are checked against it.
    let port: @Sendable () -> Int
    let http: HTTPClient

    func respond(to request: Request, context: Context) async throws -> Response {
        let origins = ["127.0.0.1:\(port())", "localhost:\(port())"]
        guard let host = request.head.authority, origins.contains(host) else {
            return Self.refusal("this bridge answers requests for \(origins[0]) only, not for host '\(request.head.authority ?? "")'.")
        }
        if let origin = request.headers[.origin], !origins.map({ "http://\($0)" }).contains(origin) {
            return Self.refusal("requests from pages of '\(origin)' are refused; only the dashboard's own pages may call the daemon.")
        }
        let path = request.uri.path
        if request.method == .get, let given = request.uri.queryParameters.get("token") {
            guard Self.same(given, token) else { return Self.refusal("the token in the URL is not this bridge's; open the URL `scenarioctl dashboard` printed.") }
            // The token leaves the address bar at once and lives in a cookie only this origin's requests carry.
            var target = path == "/" ? "/dashboard/" : path
            if let session = request.uri.queryParameters.get("session") { target += "#/session/\(session)" }
            return Response(status: .seeOther, headers: [
                .location: target,
                .setCookie: "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict",
                .cacheControl: "no-store",
            ])
        }
        guard let cookie = Self.cookie(Self.cookieName, in: request.headers), Self.same(cookie, token) else {
            return Self.refusal("this bridge needs the token of its URL; open the URL `scenarioctl dashboard` printed.")
        }
        if path == "/" { return Response(status: .seeOther, headers: [.location: "/dashboard/"]) }
        guard path == "/dashboard" || path.hasPrefix("/dashboard/") || path.hasPrefix("/v1/") else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "The bridge carries /dashboard/ and /v1/ only.\n")))
        }
        return try await forward(request)
    }

    /// Sends `request` to the daemon and streams its answer back (event streams too).
    private func forward(_ request: Request) async throws -> Response {
        let base = "http+unix://" + (socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketPath)
        var outgoing = HTTPClientRequest(url: base + request.uri.description)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for name in [HTTPField.Name.contentType, .accept, HTTPField.Name("Last-Event-ID")!] {
            if let value = request.headers[name] { outgoing.headers.add(name: name.rawName, value: value) }
        }
        // Read whole, not streamed: AsyncHTTPClient sends a request again when a kept-alive connection turns out
        // closed, and a stream can be read once. Bodies are small JSON; the daemon refuses more than 1 MiB anyway.
        let body = try await request.body.collect(upTo: Self.bodyLimit)
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        let answer: HTTPClientResponse
        do {
            // An event stream lasts as long as the page; other requests are answered at once.
            answer = try await http.execute(outgoing, timeout: .hours(24))
        } catch {
            return Response(status: .badGateway, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(
                string: #"{"code":"daemonUnreachable","message":"the bridge could not reach scenariod at \#(socketPath): \#(error)"}"#)))
        }
        var headers = HTTPFields()
        for header in answer.headers where !Self.hopByHop.contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
        }
        // An event stream ends when the bridge stops, rather than keeping it waiting for the stream's next event.
        return Response(status: .init(code: Int(answer.status.code)), headers: headers,
                        body: ResponseBody(asyncSequence: answer.body.cancelOnGracefulShutdown()))
    }

    /// One byte past the daemon's own limit, so the daemon is the one that refuses, with its message.
    private static let bodyLimit = (1 << 20) + 1

    private static let hopByHop: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"]

    private static func refusal(_ message: String) -> Response {
        Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: "Forbidden: \(message)\n")))
    }

    private static func cookie(_ name: String, in headers: HTTPFields) -> String? {
        for field in headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == name { return String(parts[1]) }
            }
        }
        return nil
    }

    /// Compares in time that does not depend on where the texts differ, so the token cannot be guessed by timing.
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
