import CTaskOwnership
import Dispatch
import Synchronization

/// The executor a session's work runs on: every task the session starts, every `Task {}` those start (see
/// ``SessionScope``), their child tasks and the default actors they call (as their task executor), and the
/// session's own actors, its clock and network (as their serial executor). It runs one job at a time, on a queue of
/// its own, so sessions stay parallel to each other and each is serial within; when several jobs are ready it
/// takes them in the session's ``SchedulingOrder``.
///
/// Because every job of the session passes through here, *settled* is exact (``settle()``): no job is ready or
/// running, no main-actor job is pending, and no wait outside the session (a live request) is under way.
public final class SessionExecutor: TaskExecutor, SerialExecutor, Sendable {
    private struct State {
        var ready: [UnownedJob] = []
        var draining = false
        /// Counts the times the executor became idle, so that a settle can tell whether it stayed idle.
        var idleCount = 0
        var externalWaits = 0
        /// Callers of ``settle(startingWith:)`` or ``run(_:)`` still running jobs on their own thread: a job that
        /// becomes ready while one is there is left for it to run, rather than wake the queue's thread.
        var drivers = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var order: SchedulingOrder
        /// Made when first needed: most sessions' work runs on their callers' threads (``settle(startingWith:)``).
        var queue: DispatchQueue?

        var isIdle: Bool { !draining && ready.isEmpty && externalWaits == 0 }

        /// Takes the next ready job in the session's order, wherever it is to run; nil when none is ready.
        mutating func takeReady() -> UnownedJob? {
            ready.isEmpty ? nil : ready.remove(at: order.pick(among: ready.count))
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
        get { state.withLock(\.order) }
        // A new generation of the session starts its order over, so a rewind replays it.
        set { state.withLock { $0.order = newValue } }
    }

    /// Takes a job of the session's: it runs after those ready before it, or where the session's order puts it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queue = state.withLock { state -> DispatchQueue? in
            state.ready.append(job)
            guard !state.draining, state.drivers == 0 else { return nil }
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
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        while let job = next() {
            // As both: a job of the session's actors needs its serial executor, a task's job its task executor.
            job.runSynchronously(isolatedTo: serial, taskExecutor: task)
        }
    }

    /// The next job in the session's order; nil once none is ready (the executor is then idle).
    private func next() -> UnownedJob? {
        let (job, waiters): (UnownedJob?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
            if let job = state.takeReady() { return (job, []) }
            state.draining = false
            return (nil, state.becameIdle())
        }
        for waiter in waiters { waiter.resume() }
        return job
    }

    /// Runs `operation`, a wait on something outside the session (the live network), counted as work under way:
    /// the session is not settled until it returns.
    public func waitingOutside<T, E: Error>(_ operation: () async throws(E) -> T) async throws(E) -> T {
        state.withLock { $0.externalWaits += 1 }
        defer {
            let waiters = state.withLock { state in
                state.externalWaits -= 1
                return state.becameIdle()
            }
            for waiter in waiters { waiter.resume() }
        }
        return try await operation()
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
        state.withLock { $0.drivers += 1 }
        start()
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        var drainingHere = false
        var left = Self.callerJobLimit
        while true {
            var waiters: [CheckedContinuation<Void, Never>] = []
            var handOff: DispatchQueue?
            let job = state.withLock { state -> UnownedJob? in
                let stop = left == 0
                if !drainingHere, !stop, !state.draining, !state.ready.isEmpty {
                    state.draining = true
                    drainingHere = true
                }
                if drainingHere {
                    if state.ready.isEmpty {
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
                if drainingHere || (!state.draining && !state.ready.isEmpty) {
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
            job.runSynchronously(isolatedTo: serial, taskExecutor: task)
        }
    }

    /// Returns once the session is settled: no job of it is ready or running, the main actor has nothing pending,
    /// and nothing outside is awaited; every task it owns is finished or waits on the virtual clock. Call it from
    /// outside the session's work: a job of the session's cannot see it idle.
    public func settle() async {
        while true {
            // Idle already (as after `runReady`): no continuation to make.
            let idleNow = state.withLock { $0.isIdle ? $0.idleCount : nil }
            let idleCount = if let idleNow { idleNow } else { await idle() }
            // The main actor is shared by the process: a job of this session may be queued there.
            guard MainActorQueue.isDrained else {
                await MainActorQueue.drained()
                continue
            }
            // Idle throughout: nothing of the session ran meanwhile, so nothing could have queued main-actor work.
            if state.withLock({ $0.isIdle && $0.idleCount == idleCount }) { return }
        }
    }

    /// Waits until the executor is idle and returns its idle count then.
    private func idle() async -> Int {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.isIdle else {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if now { continuation.resume() }
        }
        return state.withLock(\.idleCount)
    }
}
