import HTTPTypes
import NIOCore
import NIOHTTPTypes
import ScenarioHost

/// Answers `GET /v1/sessions/{id}/state` of a settled session on the event loop, from ``SettledStates``, without
/// the trip through the async request handler and the session's actor: the control API's most frequent request
/// (a test polling state) then costs what parsing and writing it costs (BENCHMARKS.md: the control API).
///
/// Everything else goes on to the router, and so does this request when the session is busy or gone (the router
/// then computes the state or says why there is none) or while an earlier request on the connection is still being
/// answered, since a response here would overtake it. It sits behind Hummingbird's connection-state handler, which
/// so sees every request and response and keeps keep-alive and idle closing right.
final class SettledStateResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let states: SettledStates
    /// Requests passed on whose response has not ended yet.
    private var passedOn = 0
    /// A state request held back until its end shows that it has no body.
    private var held: (head: HTTPRequest, session: Substring)?

    init(states: SettledStates) {
        self.states = states
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, let session = Self.stateRequestSession(head) {
                held = (head, session)
            } else {
                passOn(head, context: context)
            }
        case .body:
            if let held { passOn(held.head, context: context) }
            context.fireChannelRead(data)
        case .end:
            if let held {
                if let state = states.state(of: String(held.session)) {
                    self.held = nil
                    answer(state, context: context)
                    return
                }
                passOn(held.head, context: context)
            }
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only the router's responses pass here; this handler's own are written past it.
        if case .end = unwrapOutboundIn(data) { passedOn -= 1 }
        context.write(data, promise: promise)
    }

    private func passOn(_ head: HTTPRequest, context: ChannelHandlerContext) {
        held = nil
        passedOn += 1
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The same head and body the router's `JSONResponse` gives.
    private func answer(_ state: ModelState, context: ChannelHandlerContext) {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json",
                                                            .contentLength: String(state.jsonData.count)])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: state.jsonData))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// The session id of `GET /v1/sessions/{id}/state` with a plain id (no escapes, no query), else nil.
    static func stateRequestSession(_ head: HTTPRequest) -> Substring? {
        guard head.method == .get, let path = head.path else { return nil }
        let prefix = "/v1/sessions/", suffix = "/state"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let session = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard !session.contains(where: { "/?#%".contains($0) }) else { return nil }
        return session
    }
}
