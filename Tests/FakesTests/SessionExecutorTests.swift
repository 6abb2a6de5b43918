import Fakes
import Foundation
import SessionRuntime
import Synchronization
import Testing

@Suite struct SessionExecutorTests {
    /// Work that stays within the session runs on the thread of the caller that started it and waits for it to
    /// settle: an action then costs no thread switch. On the executor's queue, each job would run on another thread.
    @Test func workStartedBySettleRunsOnTheCallersThread() async {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0), mode: .frozen)
        let executor = clock.scope.executor
        let caller = ThreadLog(), ran = ThreadLog()
        await executor.settle {
            caller.note()
            clock.scope.start {
                ran.note()
                // A hop onto the clock, an actor of the session's: another job of the executor.
                try? await clock.sleep(for: .zero)
                ran.note()
                await Task { ran.note() }.value
            }
        }
        #expect(ran.threads.count == 3)
        #expect(ran.threads.allSatisfy { $0 == caller.threads.first })
    }

    /// A step that does not settle within the caller's share of jobs goes on on the executor's queue, so a Model that
    /// never settles holds the session's queue rather than a thread of the cooperative pool. Each turn of the loop
    /// is two jobs (onto the clock, an actor of the session's, and back), so 1,500 turns pass the 1,000-job share.
    @Test func pastTheCallersShareTheRestRunsOnTheQueue() async {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0), mode: .frozen)
        let caller = ThreadLog(), ran = ThreadLog()
        await clock.scope.executor.settle {
            caller.note()
            clock.scope.start {
                for _ in 0..<1_500 {
                    ran.note()
                    try? await clock.sleep(for: .zero)
                }
            }
        }
        let threads = ran.threads
        #expect(threads.count == 1_500)
        #expect(threads.first == caller.threads.first)
        #expect(threads.last != caller.threads.first)
    }

    /// `run` returns even when the session's work does not settle (a Model's loop that spins once cancelled, as
    /// when a session is deleted): past the caller's share the rest goes on on the queue.
    @Test func runReturnsWhileTheSessionsWorkGoesOnOnTheQueue() async {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0), mode: .frozen)
        let executor = clock.scope.executor
        let caller = ThreadLog(), spun = ThreadLog()
        let value = await executor.run {
            caller.note()
            clock.scope.start {
                for _ in 0..<1_500 {
                    spun.note()
                    try? await clock.sleep(for: .zero)
                }
            }
            return 7
        }
        #expect(value == 7)
        await executor.settle()
        #expect(spun.threads.count == 1_500)
        #expect(spun.threads.first == caller.threads.first)
        #expect(spun.threads.last != caller.threads.first)
    }

    /// `run` hands back what the operation returns, having run it on the caller's thread.
    @Test func runReturnsTheOperationsResultFromTheCallersThread() async {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 7), mode: .frozen)
        let before = pthread_self()
        let (sleepers, thread) = await clock.scope.executor.run {
            (await clock.sleeperCount, pthread_self())
        }
        #expect(sleepers == 0)
        // Only meaningful when this test's task did not move between the two reads; it cannot while it never
        // suspended, and `run` suspends only if the operation's task is still running when the ready jobs are done.
        #expect(thread == before)
    }

    /// The session is settled when `settle(startingWith:)` returns, and work that becomes ready later (a sleeper
    /// woken by a move of the clock) still runs, on the executor's queue.
    @Test func workThatBecomesReadyLaterStillRuns() async {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0), mode: .frozen)
        let woke = ThreadLog()
        await clock.spawnAndSettle {
            try? await clock.sleep(for: .seconds(5))
            woke.note()
        }
        #expect(await clock.sleeperCount == 1)
        #expect(woke.threads.isEmpty)
        await clock.advance(by: .seconds(5))
        #expect(woke.threads.count == 1)
    }
}

/// The threads work ran on, in the order it ran.
final class ThreadLog: Sendable {
    private let log = Mutex<[pthread_t]>([])

    func note() { log.withLock { $0.append(pthread_self()) } }

    var threads: [pthread_t] { log.withLock { $0 } }
}
