public import Fakes
import Foundation
import HTTPTypes
public import Services

// Requests from clients outside the session (the control API's send, a session endpoint), answered as the Model's are.
extension RoutedNetwork {
    /// Sends `request` as ``send(_:)`` does, for a client outside the session rather than its Model: journaled with
    /// `outside` true, and handing the journal entry to `arrived` as the request arrives (before a delayed answer waits
    /// on the clock), so the client learns its sequence number at once.
    /// - Parameters:
    ///   - request: The request, as the Model's network service would be given it.
    ///   - arrived: Given the request's journal entry as it arrives.
    ///   - streaming: Given, a streamed answer's head and chunks go to it as the clock delivers them, and the result has
    ///     no body; it returns false once its client is gone, which ends the stream.
    public func sendFromOutside(_ request: NetworkRequest, arrived: @Sendable (NetworkExchange) -> Void,
                                streaming: (@Sendable (NetworkStreamPart) -> Bool)? = nil) async
        -> Result<NetworkResponse, TransportError> {
        do throws(TransportError) {
            return .success(try await answer(request, outside: true, arrived: arrived, streaming: streaming))
        } catch {
            return .failure(error)
        }
    }

    /// The origins (`scheme://host[:port]`) the routes name, in the order they are tried, each once: those of exact
    /// URLs, and of patterns whose text starts with a literal origin (`https://api\.example\.com/items/\d+`). A session
    /// endpoint maps a request for its own address onto one of these.
    public func routeOrigins() -> [RouteOrigin] {
        if let knownOrigins { return knownOrigins }
        var seen = Set<RouteOrigin>()
        let origins = routes.compactMap { route -> RouteOrigin? in
            let text: String
            switch route.matcher.url {
            case .exact(let url): text = url
            case .pattern(let pattern): text = RouteOrigin.literalPrefix(of: pattern.source)
            case nil: return nil
            }
            guard let origin = RouteOrigin(url: text), seen.insert(origin).inserted else { return nil }
            return origin
        }
        knownOrigins = origins
        return origins
    }
}

// WebSockets opened by clients outside the session (a session endpoint's upgrade).
extension RoutedNetwork {
    /// Opens a WebSocket with `request` as ``webSocket(_:)`` does, for a client outside the session: journaled with
    /// `outside` true, its entry handed to `arrived` as it arrives. A route that answers with a plain response (not a
    /// conversation) gives that response, so the client sees the status a real server would refuse the upgrade with.
    public func webSocketFromOutside(_ request: NetworkRequest, arrived: @Sendable (NetworkExchange) -> Void) async -> SocketOpening {
        await openSocket(request, outside: true, arrived: arrived)
    }
}
