import Dispatch
import Foundation
import Synchronization

/// A task executor with threads of its own, one per core, for the explore benchmarks' walks.
///
/// Why: package-benchmark waits for each async benchmark by blocking a thread of Swift's cooperative pool (its
/// `runAsync` runs inside the runner's own async `run`), and that pool has one thread per core: two here. Walks run
/// on the pool would get one core where a team's test gets both (XCTest waits on the main thread; swift-testing and
/// the daemon block none). The same executor runs the one-at-a-time figures, so they compare like for like. No
/// library here offers a task executor on threads of its own (NIO's event loops are serial executors only).
final class WalkThreads: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var sleeping = 0
    }

    private let queue = Mutex(Queue())
    /// Where a thread with nothing to run sleeps; each signal wakes one.
    private let wake = DispatchSemaphore(value: 0)

    /// Set on these threads: a job one of them queues is usually its own next step (a task hopping back from an
    /// actor), which it takes itself once its job returns, as the cooperative pool's threads do, with no wake.
    private let ownThread: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    init(count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        for index in 0..<count {
            // The threads hold the executor: it lives as long as the process, as the cooperative pool does.
            let thread = Thread { [self] in
                pthread_setspecific(ownThread, UnsafeRawPointer(bitPattern: 1))
                while true { next().runSynchronously(on: asUnownedTaskExecutor()) }
            }
            thread.name = "walk-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wakeOne = queue.withLock { queue in
            queue.jobs.append(job)
            // Another thread is needed only for work beyond the job this thread will take once it returns.
            guard queue.sleeping > 0, pthread_getspecific(ownThread) == nil || queue.jobs.count > 1 else { return false }
            queue.sleeping -= 1
            return true
        }
        if wakeOne { wake.signal() }
    }

    /// The next job to run, waiting for one.
    private func next() -> UnownedJob {
        while true {
            let job = queue.withLock { queue -> UnownedJob? in
                if !queue.jobs.isEmpty { return queue.jobs.removeFirst() }
                queue.sleeping += 1
                return nil
            }
            if let job { return job }
            wake.wait()
        }
    }
}
