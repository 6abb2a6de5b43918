import Hummingbird
import NIOCore

/// Hummingbird's basic request context plus the connection the request came on, which an event stream watches to
/// end as soon as its client goes away.
struct ControlRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection; nil for requests made in process, which have none.
    var connection: (any Channel)?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = source.channel
    }
}
