import CTaskOwnership
import Synchronization

/// The main actor's queue as sessions see it.
///
/// The main actor is one per process, and so is what is pending on it: process-wide state, because the runtime's
/// hooks are process-wide. A session whose Model is `@MainActor` counts as settled
/// only when the main actor has nothing pending (``SessionExecutor/settle()``).
enum MainActorQueue {
    /// Who waits for the main actor's queue to empty (resumed from the hook, on the thread that ran its last job).
    private static let drainWaiters = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Whether no main-actor job is pending or running.
    static var isDrained: Bool { ctaskownership_main_actor_pending() == 0 }

    /// Resumes who waits for the queue to empty, if it still is: a job counted in since it emptied keeps them
    /// waiting for the next time (the hook calls this each time the count reaches zero).
    static func resumeDrainWaiters() {
        let waiters = drainWaiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            guard isDrained else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

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
}
