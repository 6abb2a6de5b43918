import NIOCore
import NIOHTTP1

/// Closes a connection that has not delivered a complete request head within `timeout` of opening or of its
/// previous response ending. That covers idle connections and clients that drip their headers byte by byte, which
/// an idle-read timeout alone would let hold a connection forever. A response being streamed (server-sent events)
/// is not a wait for a head, so it is never cut.
///
/// It sits before Hummingbird's conversion to swift-http-types, beside ``DirectReadResponder``, so it sees the
/// state reads answered there as well as the router's requests.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    /// Since when the connection has waited for a request head; nil while a request is read or answered.
    private var waitingSince: NIODeadline?
    /// One pending check, moved on only when it fires, not at every request: moving a timer costs two operations
    /// on the event loop's timer heap and an allocation, which was a tenth of a state read (perf, issue 32).
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startWaiting(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startWaiting(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { waitingSince = nil }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { startWaiting(context) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopChecking()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopChecking()
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        waitingSince = now
        if check == nil { scheduleCheck(at: now + timeout, context) }
    }

    private func scheduleCheck(at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: deadline) {
            bound.value.handler.checkWaiting(bound.value.context)
        }
    }

    /// Closes the connection if it has waited for a head for the whole timeout; else checks again when it will
    /// have. While a request is read or answered there is nothing to check until its response ends.
    private func checkWaiting(_ context: ChannelHandlerContext) {
        check = nil
        guard let waitingSince else { return }
        let deadline = waitingSince + timeout
        if deadline <= .now() {
            context.close(promise: nil)
        } else {
            scheduleCheck(at: deadline, context)
        }
    }

    private func stopChecking() {
        check?.cancel()
        check = nil
    }
}
