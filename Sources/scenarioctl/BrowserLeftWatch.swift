import Hummingbird
import NIOCore

/// Tells the bridge when a browser has left a connection: it closed it, or shut down its side (the bridge's server
/// allows half-closure, so a tab that goes away shows first as `inputClosed`). An event stream's answer never ends by
/// itself; without this the bridge would notice only at the next event it failed to write, and hold its connection
/// to the daemon until then.
final class BrowserLeftWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// Made when the handler joins its channel's pipeline (Hummingbird makes the handlers before the channel).
    private var left: EventLoopPromise<Void>?
    private var hasLeft = false

    func handlerAdded(context: ChannelHandlerContext) {
        left = context.eventLoop.makePromise()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { markLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        markLeft()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        markLeft()
    }

    private func markLeft() {
        guard !hasLeft else { return }
        hasLeft = true
        left?.succeed()
    }

    /// Completes when the browser of `channel` has left (at its close, for a channel without this handler).
    static func future(of channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.flatSubmit {
            (try? channel.pipeline.syncOperations.handler(type: BrowserLeftWatch.self))?.left?.futureResult ?? channel.closeFuture
        }
    }
}

/// The bridge's request context: Hummingbird's, plus the connection, so an event stream can end when its browser
/// leaves.
struct BridgeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
