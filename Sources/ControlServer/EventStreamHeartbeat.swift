import NIOCore
import NIOHTTP1

/// Writes a server-sent-events comment (`: heartbeat`) into an event stream that has sent nothing for ``interval``,
/// so a reader can tell a quiet session from a daemon that stopped answering (stopped by a signal, hung): the
/// dashboard shows that within 2 s, without a click. Every SSE parser skips comments, so no client sees an event.
///
/// A channel handler rather than part of the stream's writer: the writer waits on the session's events and cannot
/// also wait on a timer, and here the heartbeat is written on the connection's own event loop between whole
/// chunks, costing nothing per event. It sits before Hummingbird's conversion, where responses are NIOHTTP1 parts.
final class EventStreamHeartbeat: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// How long an event stream may stay silent before a heartbeat.
    static let interval = TimeAmount.milliseconds(500)
    private static let comment = ByteBuffer(string: ": heartbeat\n\n")

    private var beating: RepeatedTask?
    private var lastWrite = NIODeadline.now()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headers["content-type"].first?.hasPrefix("text/event-stream") == true { start(context) }
        case .body:
            lastWrite = .now()
        case .end:
            stop()
        }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func start(_ context: ChannelHandlerContext) {
        stop()
        lastWrite = .now()
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        beating = context.eventLoop.scheduleRepeatedTask(initialDelay: Self.interval, delay: Self.interval) { _ in
            let (handler, context) = bound.value
            guard NIODeadline.now() - handler.lastWrite >= Self.interval else { return }
            handler.lastWrite = .now()
            context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(Self.comment))), promise: nil)
        }
    }

    private func stop() {
        beating?.cancel()
        beating = nil
    }
}
