public import Fakes
import Services
import Synchronization

/// What a task belongs to: the session whose Model started it, directly or through tasks it started.
///
/// A task-local value, so a `Task {}` copies it from the task that created it, and the runtime hook gives that task
/// the session's ``SessionExecutor`` (DESIGN §4). A task without it (`Task.detached`, a thread) is work the
/// session cannot see: when such work calls the session's services or sleeps on the wall clock, the scope records
/// a ``/Fakes/ModelEscape``.
public final class SessionScope: Sendable {
    /// The scope of the running task, if it belongs to a session.
    @TaskLocal public static var current: SessionScope?

    /// Where the session's work runs.
    public let executor: SessionExecutor
    private let state = Mutex<(escapes: [ModelEscape], closed: Bool)>(([], false))

    /// A scope whose work runs on `executor`.
    public init(executor: SessionExecutor = SessionExecutor()) {
        self.executor = executor
    }

    /// Starts `operation` as work of this session: on its executor, with this scope as its task-local.
    @discardableResult
    public func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor) {
            await SessionScope.$current.withValue(self) { await operation() }
        }
    }

    /// Records an escape, for the host to collect with ``takeEscapes()`` (it knows which step was running).
    public func report(_ escape: ModelEscape) {
        state.withCheckedLock { state in
            guard !state.closed else { return }
            // One report of each kind and detail is enough; a timer loop that escapes each tick would fill memory.
            if !state.escapes.contains(escape) { state.escapes.append(escape) }
        }
    }

    /// Records that an answer from outside the session (`source`) arrived, when the session's schedule is seeded:
    /// the seed orders what the session runs, not when a live server or a database file answers.
    public func noteOutsideArrival(from source: String) {
        guard executor.order.seed != nil else { return }
        report(ModelEscape(kind: .unorderedArrival, detail: "\(source) answered when it answered, which the schedule seed cannot order"))
    }

    /// Records an escape when the running task is not this session's: `service` was called from work the
    /// session did not start.
    public func checkCaller(of service: String) {
        guard SessionScope.current !== self else { return }
        report(ModelEscape(kind: .untrackedWork, detail: "\(service) was called from work the session did not start (a Task.detached, a thread or a DispatchQueue)"))
    }

    /// The escapes recorded since the last call.
    public func takeEscapes() -> [ModelEscape] {
        state.withCheckedLock { state in
            defer { state.escapes = [] }
            return state.escapes
        }
    }

    /// Whether the session let go of this scope (deleted, reset or rewound): its tasks are cancelled and new ones
    /// get no executor.
    public var isClosed: Bool { state.withCheckedLock(\.closed) }

    /// Lets go of the scope; escapes reported after this are dropped.
    public func close() {
        state.withCheckedLock { $0.closed = true }
    }
}
