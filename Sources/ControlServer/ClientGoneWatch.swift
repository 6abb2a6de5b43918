import NIOCore

/// Completes `gone` when the client closes its side of the connection. The server allows half-closure (a client
/// may send its request and shut down writing), so NIO reports a client that went away as `inputClosed` and keeps
/// the channel open until the response ends; an event stream's response never ends by itself, and without this it
/// would hold its place under the subscriber limits until the next event it failed to write.
final class ClientGoneWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    let gone: EventLoopPromise<Void>
    private var isGone = false

    init(eventLoop: any EventLoop) {
        gone = eventLoop.makePromise()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { markGone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        markGone()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        markGone()
    }

    private func markGone() {
        guard !isGone else { return }
        isGone = true
        gone.succeed()
    }

    /// Completes when the client of `channel` has gone; never, for a channel without this handler.
    static func future(of channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.flatSubmit {
            (try? channel.pipeline.syncOperations.handler(type: ClientGoneWatch.self))?.gone.futureResult
                ?? channel.closeFuture
        }
    }
}
