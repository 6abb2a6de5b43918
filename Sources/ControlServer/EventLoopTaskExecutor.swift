import NIOCore

/// Runs a connection's request handling on the connection's own event loop: a request read there is handled
/// there, and its response written there, with no hand-over to the global executor's threads and back. Those two
/// wake-ups per request were the largest cost of a request that goes to the router (perf, issue 32). The actors a
/// handler calls keep their own executors; default actors run on this one while the handler awaits them.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
