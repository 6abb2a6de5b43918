import CTaskOwnership
import Fakes
import Synchronization

/// The process-wide part of a session's ownership of its Model's tasks (DESIGN §4): the hooks `CTaskOwnership` puts
/// into the Swift runtime and libdispatch, installed once, when the first ``SessionExecutor`` is made.
public enum TaskOwnership {
    /// The linker flags a binary with a static Swift runtime needs; they moved to the check's value type, which
    /// servers and packaging scripts can reach without linking the hooks.
    @available(*, deprecated, renamed: "TaskOwnershipCheck.linkerFlags")
    public static var linkerFlags: [String] { TaskOwnershipCheck.linkerFlags }

    /// Whether this binary's hooks see the tasks it creates: false only in a binary linked with a static Swift
    /// runtime but without ``/Fakes/TaskOwnershipCheck/linkerFlags``, whose sessions then cannot own a Model's
    /// `Task {}`. Task creation is one part of what ``check()`` tries; the daemon uses that.
    @available(*, deprecated, message: "use TaskOwnership.check(), which tries every part of task ownership, task creation among them")
    public static var isComplete: Bool {
        installHooks()
        return probe
    }

    /// A task created once the hooks are in, to see whether creation passes through them.
    private static let probe: Bool = {
        Task {}.cancel()
        return ctaskownership_creation_hooked() != 0
    }()

    /// Runs `read`, scenariod's own read of the wall clock (a clock in ``/Fakes/ClockMode/system`` mode), on the
    /// calling thread without reporting it as the Model's.
    static func readingWallClock<T>(_ read: () -> T) -> T {
        ctaskownership_set_infrastructure(1)
        defer { ctaskownership_set_infrastructure(0) }
        return read()
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
            wallClockRead: {
                SessionScope.current?.report(ModelEscape(kind: .wallClockRead, detail: "the Model read the wall clock (Date())"))
            },
            dispatchQueueUsed: { afterDelay in
                let call = afterDelay == 0 ? "DispatchQueue.async" : "DispatchQueue.asyncAfter"
                SessionScope.current?.report(ModelEscape(kind: .dispatchQueue, detail: "the Model sent work to a dispatch queue (\(call))"))
            },
            mainActorDrained: { MainActorQueue.resumeDrainWaiters() },
            mainActorJobSent: { SessionExecutor.mainActorJobSent($0) },
            mainActorJobRan: { SessionExecutor.mainActorJobRan($0) }))
    }()
}

extension SessionExecutor {
    /// The executor as the runtime's owned task-executor option takes it (`swift/ABI/TaskOptions.h`,
    /// `InitialTaskExecutorOwnedPreferenceTaskOptionRecord`): an `any TaskExecutor`, the object and its witness
    /// table, from which the runtime asks for `asUnownedTaskExecutor()` itself. Retained once for the task that will
    /// own it.
    func retainedReference() -> CTaskExecutorRef {
        let existential = unsafeBitCast(self as any TaskExecutor, to: (UnsafeRawPointer, UInt).self)
        _ = Unmanaged.passRetained(self)
        return CTaskExecutorRef(identity: existential.0, implementation: existential.1)
    }
}
