import ControlAPI
import NIOCore
import NIOHTTP1
import ScenarioHost

/// Answers the two reads that need no turn of a session on the event loop, without the trip through the async
/// request handler and the host's and session's actors: `GET /v1/sessions/{id}/state` of a settled session, from
/// ``SettledStates`` (the control API's most frequent request: a test polling state), and `GET …/journal` and
/// `…/journal/unmatched` of any open session, from ``SessionJournals`` (a journal at its bound is 200 KB, whose
/// body is kept until the journal changes). Each then costs what parsing and writing it costs (BENCHMARKS.md: the
/// control API, journal reads at the bound).
///
/// It works on NIOHTTP1's parts, before Hummingbird's conversion to swift-http-types: a GET always converts, and
/// a path that starts with `/` converts unchanged, so the request it answers is the one the router would have
/// seen, without the conversion's cost (a `URLComponents` parse and the header list copied, per request).
///
/// Everything else goes on to the router, and so do these requests when the session is busy (a state) or gone
/// (the router then computes the state or says why there is none), when the client does not keep the connection
/// open (the router's side closes it), or while an earlier request on the connection is still being answered,
/// since a response here would overtake it.
final class DirectReadResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A state as this connection last answered it: a client polling a state that has not changed is answered
    /// without encoding or copying it again.
    private struct Encoded {
        var version: UInt64
        var tag: String
        var head: HTTPResponseHead
        var body: ByteBuffer
    }

    /// A read this handler may answer, with the session it names.
    enum Read {
        case state(session: Substring)
        case journal(session: Substring, unmatchedOnly: Bool)
    }

    private let states: SettledStates
    private let journals: SessionJournals
    private let metrics: DaemonMetrics
    /// Requests passed on whose response has not ended yet.
    private var passedOn = 0
    /// A read held back until its end shows that it has no body.
    private var held: (head: HTTPRequestHead, read: Read)?
    private var encoded: Encoded?

    init(states: SettledStates, journals: SessionJournals, metrics: DaemonMetrics) {
        self.states = states
        self.journals = journals
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, head.version == .http1_1, head.isKeepAlive, let read = Self.read(head) {
                held = (head, read)
            } else {
                passOn(head, context: context)
            }
        case .body:
            if let held { passOn(held.head, context: context) }
            context.fireChannelRead(data)
        case .end:
            if let held {
                switch held.read {
                case .state(let session):
                    if let entry = states.entry(of: String(session)) {
                        self.held = nil
                        answer(entry, to: held.head, context: context)
                        return
                    }
                case .journal(let session, let unmatchedOnly):
                    if let body = journals.body(of: String(session), unmatchedOnly: unmatchedOnly, assemble: JournalResponse.body) {
                        self.held = nil
                        answerJournal(body, unmatchedOnly: unmatchedOnly, context: context)
                        return
                    }
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

    private func passOn(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        held = nil
        passedOn += 1
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The same status, headers and body the router's answer has (`ControlRoutes`' state read).
    private func answer(_ entry: SettledStates.Entry, to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let encoded = encoding(entry)
        if StateEntityTag.isMatched(encoded.tag, byIfNoneMatch: request.headers["If-None-Match"]) {
            let head = HTTPResponseHead(version: .http1_1, status: .notModified, headers: ["ETag": encoded.tag])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            metrics.countSettledStateRead(notModified: true)
        } else {
            metrics.countSettledStateRead(notModified: false)
            context.write(wrapOutboundOut(.head(encoded.head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(encoded.body))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// The same status, headers and body the router's answer has (`ControlRoutes`' journal reads).
    private func answerJournal(_ body: ByteBuffer, unmatchedOnly: Bool, context: ChannelHandlerContext) {
        metrics.countDirectJournalRead(unmatchedOnly: unmatchedOnly)
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: [
            "Content-Type": "application/json", "Content-Length": String(body.readableBytes)])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func encoding(_ entry: SettledStates.Entry) -> Encoded {
        if let encoded, encoded.version == entry.version { return encoded }
        let tag = StateEntityTag.of(entry.state)
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: [
            "Content-Type": "application/json", "Content-Length": String(entry.state.jsonData.count), "ETag": tag])
        let fresh = Encoded(version: entry.version, tag: tag, head: head, body: ByteBuffer(bytes: entry.state.jsonData))
        encoded = fresh
        return fresh
    }

    /// The read `GET /v1/sessions/{id}/state`, `…/journal` or `…/journal/unmatched` with a plain id (no escapes,
    /// no query) asks for, else nil.
    static func read(_ head: HTTPRequestHead) -> Read? {
        guard head.method == .GET else { return nil }
        let path = head.uri, prefix = "/v1/sessions/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        if let session = Self.session(in: rest, before: "/state") { return .state(session: session) }
        if let session = Self.session(in: rest, before: "/journal") { return .journal(session: session, unmatchedOnly: false) }
        if let session = Self.session(in: rest, before: "/journal/unmatched") { return .journal(session: session, unmatchedOnly: true) }
        return nil
    }

    /// The plain session id `rest` holds before `suffix`, or nil.
    private static func session(in rest: Substring, before suffix: String) -> Substring? {
        guard rest.hasSuffix(suffix), rest.utf8.count > suffix.utf8.count else { return nil }
        let session = rest.dropLast(suffix.count)
        // Bytes rather than characters: this runs for every read.
        guard !session.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%") })
        else { return nil }
        return session
    }
}
