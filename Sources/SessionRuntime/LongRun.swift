/// Where a long run of a session's work goes on: on its caller's thread for a slice, then off it.
///
/// A clock move that wakes thousands of sleepers, or a rewind that replays a long history, runs on its caller's
/// thread (``SessionExecutor/run(_:)``), which saves two thread switches for each piece. For the control API that
/// thread is a connection's event loop, which serves other connections too: held there, their requests, even
/// `GET /v1/health`, would wait for the whole move. So once the run has held the caller's thread for ``slice``, it
/// goes on on the global executor's threads and the event loop is free. A time, not a count: one wake of one Model
/// costs a microsecond, of another a millisecond. A session's jobs run in its order wherever they run.
package enum LongRun {
    /// Long beside the cost of moving to the global executor (two thread switches), short beside the time a request
    /// should wait for another's.
    package static let slice: Duration = .milliseconds(2)

    /// Calls `step` until it returns false: on the caller's executor until ``slice`` has passed, then on the global
    /// executor. (Yielding would not free an event loop: SwiftNIO runs what is enqueued during a tick in that tick,
    /// before it polls its connections again.)
    package static func repeating<Failure: Error>(
        isolation: isolated (any Actor)? = #isolation, _ step: () async throws(Failure) -> Bool
    ) async throws(Failure) {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < slice {
            guard try await step() else { return }
        }
        try await withTaskExecutorPreference(globalConcurrentExecutor, isolation: isolation) { () async throws(Failure) in
            while try await step() {}
        }
    }
}
