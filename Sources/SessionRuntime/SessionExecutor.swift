import CTaskOwnership
import Dispatch
import Fakes
import Services
import Synchronization

/// The executor a session's work runs on: every task the session starts, every `Task {}` those start (see
/// ``SessionScope``), their child tasks and the default actors they call (as their task executor), and the
/// session's own actors, its clock and network (as their serial executor). It runs one job at a time, on a queue of
/// its own, so sessions stay parallel to each other and each is serial within; when several jobs are ready it
/// takes them in the session's ``SchedulingOrder``.
///
/// Because every job of the session passes through here, *settled* is exact (``settle()``): no job is ready or
/// running, no main-actor job is pending, and no wait outside the session (a live request) is under way.
///
/// The session's jobs on the main actor (a `@MainActor` Model's) run one at a time with the rest: while one is
/// pending the executor takes no job, and a main-actor job sent from a job of the session is sent only once that job
/// has returned (`CTaskOwnership`). What is ready at each choice then follows from the session's steps alone, not
/// from how the main thread and the executor's thread happen to race, so a seed picks the same way in every run.
public final class SessionExecutor: TaskExecutor, SerialExecutor, Sendable {
    private struct State {
        var ready: [UnownedJob] = []
        var draining = false
        /// Counts the times the executor became idle, so that a settle can tell whether it stayed idle.
        var idleCount = 0
        var externalWaits = 0
        /// The session's main-actor jobs sent and not yet run: while there is one, no job here may run.
        var mainActorPending = 0
        /// Callers of ``settle(startingWith:)`` or ``run(_:)`` still running jobs on their own thread: a job that
        /// becomes ready while one is there is left for it to run, rather than wake the queue's thread.
        var drivers = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var order: SchedulingOrder
        /// Made when first needed: most sessions' work runs on their callers' threads (``settle(startingWith:)``).
        var queue: DispatchQueue?

        var isIdle: Bool { !draining && ready.isEmpty && externalWaits == 0 && mainActorPending == 0 }

        /// Whether a job is ready and may run now (none of the session's is pending on the main actor).
        var canRun: Bool { !ready.isEmpty && mainActorPending == 0 }

        /// Takes the next ready job in the session's order, wherever it is to run; nil when none may run.
        mutating func takeReady() -> UnownedJob? {
            canRun ? ready.remove(at: order.pick(among: ready.count)) : nil
        }

        /// The queue, made the first time a drain goes to it.
        mutating func queue(label: String) -> DispatchQueue {
            if let queue { return queue }
            let made = DispatchQueue(label: label)
            queue = made
            return made
        }

        /// Counts a move to idle and hands back who waited for it (none when work is still under way).
        mutating func becameIdle() -> [CheckedContinuation<Void, Never>] {
            guard isIdle else { return [] }
            idleCount += 1
            defer { idleWaiters = [] }
            return idleWaiters
        }
    }

    private let state: Mutex<State>
    private let label: String

    /// An executor named `label` (it names the queue in a debugger), taking jobs in `order`.
    public init(label: String = "scenariod.session", order: SchedulingOrder = SchedulingOrder()) {
        state = Mutex(State(order: order))
        self.label = label
        TaskOwnership.installHooks()
    }

    /// The order jobs ready together run in.
    public var order: SchedulingOrder {
        get { state.withCheckedLock(\.order) }
        // A new generation of the session starts its order over, so a rewind replays it.
        set { state.withCheckedLock { $0.order = newValue } }
    }

    /// Takes a job of the session's: it runs after those ready before it, or where the session's order puts it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queue = state.withCheckedLock { state -> DispatchQueue? in
            state.ready.append(job)
            guard !state.draining, state.drivers == 0, state.mainActorPending == 0 else { return nil }
            state.draining = true
            return state.queue(label: label)
        }
        if let queue { drain(on: queue) }
    }

    /// Starts a drain on the executor's queue (the caller has set `draining`).
    private func drain(on queue: DispatchQueue) {
        // The executor's own queue, not the Model's escape to one.
        ctaskownership_set_infrastructure(1)
        queue.async { self.drain() }
        ctaskownership_set_infrastructure(0)
    }

    private func drain() {
        while let job = next() { runJob(job) }
    }

    /// Runs one job of the session's on this thread, marked as the session's, so that a main-actor job it sends is
    /// counted here and sent once it returns.
    private func runJob(_ job: UnownedJob) {
        let previous = ctaskownership_begin_job(Unmanaged.passUnretained(self).toOpaque())
        // As both: a job of the session's actors needs its serial executor, a task's job its task executor.
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        ctaskownership_end_job(previous)
    }

    /// The next job in the session's order; nil once none may run (the executor is then idle, or waits for its
    /// main-actor jobs).
    private func next() -> UnownedJob? {
        let (job, waiters): (UnownedJob?, [CheckedContinuation<Void, Never>]) = state.withCheckedLock { state in
            if let job = state.takeReady() { return (job, []) }
            state.draining = false
            return (nil, state.becameIdle())
        }
        for waiter in waiters { waiter.resume() }
        return job
    }

    /// Runs `operation`, a wait on something outside the session (the live network), counted as work under way:
    /// the session is not settled until it returns. It runs outside the session's scope: what the client library
    /// does is scenariod's machinery, not the Model's (AsyncHTTPClient builds a TLS context on a DispatchQueue, which
    /// the shipped `live` scenario reported as the Model's escape at every start).
    public func waitingOutside<T, E: Error>(_ operation: () async throws(E) -> T) async throws(E) -> T {
        state.withCheckedLock { $0.externalWaits += 1 }
        defer {
            let waiters = state.withCheckedLock { state in
                state.externalWaits -= 1
                return state.becameIdle()
            }
            for waiter in waiters { waiter.resume() }
        }
        let result: Result<T, E> = await SessionScope.$current.withValue(nil) {
            do throws(E) { return .success(try await operation()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Calls `start`, which gives the session work (spawns a task of it), and returns once the session is settled,
    /// as ``settle()`` does. What `start` makes ready runs here, on the caller's thread (see `runReady`).
    public func settle(startingWith start: () -> Void) async {
        runReady(after: start)
        await settle()
    }

    /// Runs `operation` as a task of this executor and returns its result, running the session's ready jobs on the
    /// caller's thread meanwhile (see `runReady`): for the host's calls into the session's actors, such as stopping
    /// its clock, which would otherwise cost two thread switches. Not for a move of the session's clock, which
    /// settles the session in the middle: ``settle()`` must be called from outside the session's work.
    public func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        var task: Task<T, Never>?
        runReady { task = Task(executorPreference: self, operation: operation) }
        return await task!.value
    }

    /// How many jobs a caller runs on its own thread before it hands the rest to the queue. A Model that never
    /// settles (a loop that hops between its actors forever, as a catch-all retry loop does once cancelled) then
    /// holds the session's queue, not one of the cooperative pool's few threads, which the rest of the process needs.
    private static let callerJobLimit = 1_000

    /// Calls `start` and then runs the jobs it made ready here, on the caller's thread, rather than on the queue's,
    /// until none is ready or it has run `callerJobLimit` jobs; what is still ready then goes on on the queue. Work
    /// that stays within the session then costs no thread switch (two otherwise, onto the queue's thread and back to
    /// the caller). Jobs that become ready once this returns — after a wait outside the session (the main actor, a
    /// live request, a clock's tick) — run on the queue.
    ///
    /// The order is the session's either way: each job is picked under the lock, wherever it runs. The caller's
    /// thread is one of the cooperative pool's, so a Model that blocks its thread waiting for work of that pool (a
    /// semaphore) can starve it, as it can anywhere in Swift concurrency.
    private func runReady(after start: () -> Void) {
        state.withCheckedLock { $0.drivers += 1 }
        start()
        var drainingHere = false
        var left = Self.callerJobLimit
        while true {
            var waiters: [CheckedContinuation<Void, Never>] = []
            var handOff: DispatchQueue?
            let job = state.withCheckedLock { state -> UnownedJob? in
                let stop = left == 0
                if !drainingHere, !stop, !state.draining, state.canRun {
                    state.draining = true
                    drainingHere = true
                }
                if drainingHere {
                    if !state.canRun {
                        state.draining = false
                        drainingHere = false
                        waiters = state.becameIdle()
                    } else if !stop {
                        return state.takeReady()
                    }
                }
                // Leave, under the same lock, so that no job is left for a driver who has gone (enqueue starts the
                // queue's drain only once no driver is here): what is ready and not draining goes to the queue.
                state.drivers -= 1
                if drainingHere || (!state.draining && state.canRun) {
                    state.draining = true
                    handOff = state.queue(label: label)
                }
                return nil
            }
            for waiter in waiters { waiter.resume() }
            guard let job else {
                if let handOff { drain(on: handOff) }
                return
            }
            left -= 1
            runJob(job)
        }
    }

    /// A job of this session's sent a job to the main actor (`CTaskOwnership` calls this, with the executor that
    /// ``runJob(_:)`` marked): no job here runs until it has run. The executor is kept alive until then.
    static func mainActorJobSent(_ owner: UnsafeMutableRawPointer) {
        let executor = Unmanaged<SessionExecutor>.fromOpaque(owner).retain().takeUnretainedValue()
        executor.state.withCheckedLock { $0.mainActorPending += 1 }
    }

    /// A main-actor job of the session's has run (and sent on what it sent): once none is pending, the jobs that
    /// became ready meanwhile run on the executor's queue, or the session is idle.
    static func mainActorJobRan(_ owner: UnsafeMutableRawPointer) {
        let executor = Unmanaged<SessionExecutor>.fromOpaque(owner).takeRetainedValue()
        var waiters: [CheckedContinuation<Void, Never>] = []
        let queue = executor.state.withCheckedLock { state -> DispatchQueue? in
            state.mainActorPending -= 1
            guard state.mainActorPending == 0 else { return nil }
            // A driver still here takes what is ready itself (it looks again under this lock).
            if !state.draining, state.drivers == 0, !state.ready.isEmpty {
                state.draining = true
                return state.queue(label: executor.label)
            }
            waiters = state.becameIdle()
            return nil
        }
        for waiter in waiters { waiter.resume() }
        if let queue { executor.drain(on: queue) }
    }

    /// Returns once the session is settled: no job of it is ready or running, the main actor has nothing pending,
    /// and nothing outside is awaited; every task it owns is finished or waits on the virtual clock. Call it from
    /// outside the session's work: a job of the session's cannot see it idle.
    public func settle() async {
        while true {
            // Idle already (as after `runReady`): no continuation to make.
            let idleNow = state.withCheckedLock { $0.isIdle ? $0.idleCount : nil }
            let idleCount = if let idleNow { idleNow } else { await idle() }
            // The main actor is shared by the process: a job of this session may be queued there.
            guard MainActorQueue.isDrained else {
                await MainActorQueue.drained()
                continue
            }
            // Idle throughout: nothing of the session ran meanwhile, so nothing could have queued main-actor work.
            if state.withCheckedLock({ $0.isIdle && $0.idleCount == idleCount }) { return }
        }
    }

    /// Waits until the executor is idle and returns its idle count then.
    private func idle() async -> Int {
        await withCheckedContinuation { continuation in
            let now = state.withCheckedLock { state in
                guard state.isIdle else {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if now { continuation.resume() }
        }
        return state.withCheckedLock(\.idleCount)
    }
}
