import CTaskOwnership
import Synchronization

/// The main actor's queue as sessions see it, and the installation of the runtime hooks (`CTaskOwnership`) that
/// let a session own its Model's tasks.
///
/// The main actor is one per process, and so is what is pending on it: this is the one place with process-wide
/// state, because the runtime's hooks are process-wide. A session whose Model is `@MainActor` counts as settled
/// only when the main actor has nothing pending (``SessionExecutor/settle()``).
enum MainActorQueue {
    /// Who waits for the main actor's queue to empty (resumed from the hook, on the main thread).
    private static let drainWaiters = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Whether no main-actor job is pending or running.
    static var isDrained: Bool { ctaskownership_main_actor_pending() == 0 }

    /// Returns once the main actor's queue has been empty (at once if it is now).
    static func drained() async {
        await withCheckedContinuation { continuation in
            let now = drainWaiters.withLock { waiters in
                // Read under the lock the hook resumes under, so an emptying in between is not missed.
                guard isDrained else {
                    waiters.append(continuation)
                    return false
                }
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Installs the hooks, once per process (later calls cost an atomic load).
    static func installHooks() {
        _ = installation
    }

    private static let installation: Void = {
        ctaskownership_install(CTaskOwnershipCallbacks(
            preferredExecutor: {
                guard let scope = SessionScope.current, !scope.isClosed else {
                    return CTaskExecutorRef(identity: nil, implementation: 0)
                }
                return scope.executor.retainedReference()
            },
            detachedTaskCreated: {
                SessionScope.current?.report(ModelEscape(kind: .detachedTask, detail: "the Model started a Task.detached"))
            },
            wallClockSleep: {
                SessionScope.current?.report(ModelEscape(kind: .wallClockSleep, detail: "the Model slept on the wall clock (Task.sleep, ContinuousClock or SuspendingClock)"))
            },
            dispatchQueueUsed: { afterDelay in
                let call = afterDelay == 0 ? "DispatchQueue.async" : "DispatchQueue.asyncAfter"
                SessionScope.current?.report(ModelEscape(kind: .dispatchQueue, detail: "the Model sent work to a dispatch queue (\(call))"))
            },
            mainActorDrained: {
                let waiters = drainWaiters.withLock { waiters in
                    defer { waiters = [] }
                    return isDrained ? waiters : []
                }
                for waiter in waiters { waiter.resume() }
            }))
    }()
}

extension SessionExecutor {
    /// The executor as the runtime's task option takes it, retained once for the task that will own it.
    func retainedReference() -> CTaskExecutorRef {
        let reference = unsafeBitCast(asUnownedTaskExecutor(), to: (UnsafeRawPointer, UInt).self)
        _ = Unmanaged.passRetained(self)
        return CTaskExecutorRef(identity: reference.0, implementation: reference.1)
    }
}
