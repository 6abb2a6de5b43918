import Fakes
import Foundation

extension Route {
    /// Why the route's answers cannot reach the requests it matches, or nil when they can: a WebSocket opens with a
    /// GET (to a `ws`/`wss` URL, or its `http`/`https` form) and a streamed body answers an `http`/`https` request,
    /// so a `webSocket` on a POST, or a `stream` on a `wss` URL, would validate and then fail at the first request
    /// ("the assistant answered 101").
    var transportMismatch: String? {
        let url: String? = if case .exact(let url)? = matcher.url { url } else { nil }
        let socket = url.flatMap { URL(string: $0)?.scheme?.lowercased() }.map { ["ws", "wss"].contains($0) } ?? false
        if outcomes.contains(where: { $0.webSocket != nil }), let method = matcher.method, method != "GET" {
            return "route '\(name)' answers with a 'webSocket' but matches \(method) requests; a WebSocket opens with a GET, so match method GET (or none)."
        }
        if socket, outcomes.contains(where: { $0.stream != nil }) {
            return "route '\(name)' answers with a 'stream' but matches the WebSocket URL '\(url ?? "")'; a streamed body answers an http or https request, a WebSocket route answers with 'webSocket'."
        }
        return nil
    }
}
