import CTaskOwnership
import Fakes
import Services
import Synchronization

/// The main actor's jobs that belong to no session's work (a client's read of a `@MainActor` Model's state), as
/// sessions see them.
///
/// A session's own main-actor jobs are counted by its ``SessionExecutor``; these are counted process-wide, because the
/// runtime's hooks are process-wide and such a job names no session. A session counts as settled only once none of
/// them is pending (``SessionExecutor/settle()``).
enum MainActorQueue {
    /// Who waits for the main actor's queue to empty (resumed from the hook, on the thread that ran its last job).
    private static let drainWaiters = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Whether no main-actor job of no session's is pending or running.
    static var isDrained: Bool { ctaskownership_main_actor_pending() == 0 }

    /// Resumes who waits for the queue to empty, if it still is: a job counted in since it emptied keeps them
    /// waiting for the next time (the hook calls this each time the count reaches zero).
    static func resumeDrainWaiters() {
        let waiters = drainWaiters.withCheckedLock { waiters -> [CheckedContinuation<Void, Never>] in
            guard isDrained else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the main actor's queue has been empty (at once if it is now).
    static func drained() async {
        await withCheckedContinuation { continuation in
            let now = drainWaiters.withCheckedLock { waiters in
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
