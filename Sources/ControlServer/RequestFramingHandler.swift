import ControlAPI
import Foundation
import NIOCore
import NIOHTTP1
import Services

/// Answers what is wrong with a request's framing before the router sees it, with the JSON error the API document
/// promises for every error, then closes the connection (its bytes can no longer be trusted to frame a next request):
///
/// - bytes the HTTP parser refuses (`Content-Length: abc`, two lengths, a length beside `Transfer-Encoding`, a
///   garbage request line): 400 `malformedRequest`, naming what the parser found;
/// - a `Transfer-Encoding` other than `chunked`: 501 `unsupportedTransferEncoding` (Hummingbird would read
///   `gzip, chunked` as an empty body);
/// - a `Content-Length` over the body limit: 413 `bodyTooLarge` at once, before a byte of the body is read (what
///   the client still sends is dropped until its end, or the body timeout);
/// - a body that has not arrived whole within `bodyTimeout` of its head: 408 `bodyTimeout` (a client that declares
///   2 GiB and sends one byte otherwise holds its connection for ever).
///
/// It sits where ``RequestTimeoutHandler`` does, before Hummingbird's conversion, and Hummingbird's own answer to
/// a parser error (400 with an empty body) never runs: the error stops here.
final class RequestFramingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let bodyLimit: Int
    private let bodyTimeout: TimeAmount
    /// The pending check that the body being read arrives in time.
    private var bodyCheck: Scheduled<Void>?
    /// Set once this handler has answered: the rest of the connection's bytes are dropped until it closes.
    private var refused = false
    /// After a refusal at the head, the body the client is still sending is read and dropped until it ends (or the
    /// body timeout), then the connection closes: closing at once would fail the client's write before it reads
    /// the answer.
    private var draining = false

    init(bodyLimit: Int, bodyTimeout: TimeAmount) {
        self.bodyLimit = bodyLimit
        self.bodyTimeout = bodyTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else {
            if draining, case .end = unwrapInboundIn(data) { context.close(promise: nil) }
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let refusal = Self.refusal(of: head, bodyLimit: bodyLimit) {
                refuse(refusal, context, draining: Self.hasBody(head))
                return
            }
            if Self.hasBody(head) { startBodyCheck(context) }
        case .body:
            break
        case .end:
            bodyCheck?.cancel()
            bodyCheck = nil
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !refused else { return }
        refuse((.badRequest, .malformedRequest, "the request is not HTTP/1.1 this server can frame (\(Self.describe(error))); send one request line, one Content-Length or Transfer-Encoding: chunked, and a body of that length."), context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        bodyCheck?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        bodyCheck?.cancel()
    }

    /// Why the request of `head` is refused before its body is read; nil when it is not.
    static func refusal(of head: HTTPRequestHead, bodyLimit: Int) -> (HTTPResponseStatus, APIErrorCode, String)? {
        let codings = head.headers["transfer-encoding"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        if !codings.isEmpty, codings != ["chunked"] {
            return (.notImplemented, .unsupportedTransferEncoding, "Transfer-Encoding '\(codings.joined(separator: ", "))' is not supported; send the body as it is (with a Content-Length) or with Transfer-Encoding: chunked alone.")
        }
        if let declared = head.headers["content-length"].first.flatMap({ Int($0) }), declared > bodyLimit {
            return (.payloadTooLarge, .bodyTooLarge, "the request body of \(declared) bytes (its Content-Length) is over the limit of \(bodyLimit) bytes; send less.")
        }
        return nil
    }

    static func hasBody(_ head: HTTPRequestHead) -> Bool {
        head.headers["transfer-encoding"].isEmpty == false
            || head.headers["content-length"].first.flatMap { Int($0) }.map { $0 > 0 } == true
    }

    /// The parser's error in words: its case name (`invalidContentLength`) says what it found.
    static func describe(_ error: HTTPParserError) -> String {
        let said = "\(error)"
        // The parser has no name for some refusals, a Content-Length beside Transfer-Encoding among them.
        return said.hasPrefix("unknown") ? "a framing the parser refuses, such as a Content-Length beside Transfer-Encoding" : said
    }

    private func startBodyCheck(_ context: ChannelHandlerContext) {
        bodyCheck?.cancel()
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let seconds = Double(bodyTimeout.nanoseconds) / 1e9
        bodyCheck = context.eventLoop.scheduleTask(in: bodyTimeout) {
            let (handler, context) = bound.value
            handler.bodyCheck = nil
            handler.refuse((.requestTimeout, .bodyTimeout, "the request body did not arrive whole within \(seconds.formatted()) s of its head (the daemon's --body-timeout); send the body as its head says, or a Content-Length that matches it."), context)
            // The head and the body so far were passed on: the router must not read them as a whole request (a
            // session was once created from a body cut short, after its client had been told 408).
            context.fireErrorCaught(BodyCutShort())
        }
    }

    /// What the request's reader meets when its body stopped before its end: the request is not to be acted on.
    struct BodyCutShort: Error {}

    /// Nothing more is written once this handler has answered: the router's answer to a request refused mid-body
    /// would follow the refusal on a connection that is closing.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !refused else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(data, promise: promise)
    }

    /// Writes the JSON error for `refusal` and closes the connection once it is sent, or, `draining`, once the
    /// request's body has been read and dropped (at the latest at the body timeout).
    private func refuse(_ refusal: (HTTPResponseStatus, APIErrorCode, String), _ context: ChannelHandlerContext, draining: Bool = false) {
        refused = true
        self.draining = draining
        bodyCheck?.cancel()
        bodyCheck = nil
        if draining {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            bodyCheck = context.eventLoop.scheduleTask(in: bodyTimeout) { bound.value.close(promise: nil) }
        }
        let (status, code, message) = refusal
        let body = (try? JSONEncoder.services.encode(APIErrorBody(code: code, message: message))) ?? Data()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let flushed = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        guard !draining else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        flushed.whenComplete { _ in bound.value.close(promise: nil) }
    }
}
