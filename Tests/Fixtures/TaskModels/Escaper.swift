public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import Services

/// A Model with each kind of escape a session reports: work it cannot see or order.
public actor Escaper: Model {
    public static let name = "Escaper"
    public static let actionNames = ["detach", "wallSleep", "readDate", "dispatch", "thread", "urlSession", "stay"]

    public enum Action: Decodable, Sendable {
        /// A `Task.detached`.
        case detach
        /// A `Task.sleep` on the wall clock, in a task the session owns.
        case wallSleep
        /// A read of the wall clock, `Date()`, in a task the session owns.
        case readDate
        /// The session's store called from a `DispatchQueue`.
        case dispatch
        /// The session's store called from a thread.
        case thread
        /// A request through `URLSession` rather than the session's network.
        case urlSession
        /// Nothing escapes: a timer on the session's clock.
        case stay
    }

    public struct State: Encodable, Sendable {
        public var steps = 0
        public var seen: Date?
    }

    public private(set) var state = State()
    private let clock: any ClockService
    private let keyValue: any KeyValueService
    private let outside = OutsideExecutor()

    public init(services: ModelServices) {
        clock = services.clock
        keyValue = services.keyValue
    }

    public func perform(_ action: Action) async {
        state.steps += 1
        switch action {
        case .detach:
            Task.detached { await self.step() }
        case .wallSleep:
            Task {
                try? await Task.sleep(for: .milliseconds(1))
                self.step()
            }
        case .readDate:
            Task {
                state.seen = Date()
            }
        case .dispatch:
            // Waits for the escaping work, so the step that caused it is the one that reports it. (The store, not
            // the clock: the clock runs on the session's executor, which this wait holds.)
            callStore { work in DispatchQueue.global().async(execute: work) }
        case .thread:
            callStore { work in Thread(block: work).start() }
        case .urlSession:
            // The discard port on loopback: refused at once. What counts is that the request leaves by URLSession.
            _ = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:9/")!)
        case .stay:
            Task {
                try? await clock.sleep(for: .seconds(1))
                self.step()
            }
        }
    }

    private func step() {
        state.steps += 1
    }

    /// Calls the session's store from work that `launch` starts outside the session, and blocks until it has: an
    /// escape happens outside the session, which cannot wait for it. The call runs on ``OutsideExecutor``, not the
    /// cooperative pool: this wait may hold one of the pool's threads (the caller's, which runs the session's jobs
    /// while it settles), and parallel tests could hold them all.
    private func callStore(from launch: (@escaping @Sendable () -> Void) -> Void) {
        let store = keyValue, outside = outside
        let semaphore = DispatchSemaphore(value: 0)
        launch {
            Task(executorPreference: outside) {
                _ = try? await store.keys()
                semaphore.signal()
            }
        }
        semaphore.wait()
    }

    public func run() async {}
}

/// A task executor on a queue of its own, for the escaping work ``Escaper`` waits for while it holds its thread.
final class OutsideExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "Escaper.outside", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
