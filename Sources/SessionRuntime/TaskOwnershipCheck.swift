import CTaskOwnership
import Dispatch
public import Fakes
import Foundation
import Services
import Synchronization

extension TaskOwnership {
    /// The result for this process, found once (the hooks are the process's) and kept.
    private static let result = Task { await tryEveryPart() }

    /// Tries each part of task ownership once and returns what works; later calls return the first answer.
    public static func check() async -> TaskOwnershipCheck { await result.value }

    /// The longest the check waits for the main actor to run a job: a main thread that never runs its queue is a
    /// missing part, not a daemon that never starts.
    private static let mainActorWait: Duration = .seconds(5)

    private static func tryEveryPart() async -> TaskOwnershipCheck {
        installHooks()
        let executor = SessionExecutor(label: "scenariod.task-ownership-check")
        let scope = SessionScope(executor: executor)
        let mark = Int(bitPattern: Unmanaged.passUnretained(executor).toOpaque())
        let found = Mutex<(owned: Bool, mainActor: Bool)>((false, false))
        await scope.start {
            // The session's own work, as a Model's `perform` would start it.
            let owned = await Task { Int(bitPattern: ctaskownership_current_owner()) == mark }.value
            Task.detached {}
            try? await Task.sleep(for: .nanoseconds(1))
            _ = Date()
            DispatchQueue.global().async {}
            let mainActor = await mainActorHop { Int(bitPattern: ctaskownership_current_owner()) == mark }
            found.withCheckedLock { $0 = (owned, mainActor) }
        }.value
        let kinds = Set(scope.takeEscapes().map(\.kind))
        scope.close()
        let (owned, mainActor) = found.withCheckedLock { $0 }
        return TaskOwnershipCheck(parts: [
            .init(name: "a Task {} runs on its session's executor", works: owned),
            .init(name: "a Task.detached is reported", works: kinds.contains(.detachedTask)),
            .init(name: "a wall-clock sleep is reported", works: kinds.contains(.wallClockSleep)),
            .init(name: "a Date() read is reported", works: kinds.contains(.wallClockRead)),
            .init(name: "a DispatchQueue.async is reported", works: kinds.contains(.dispatchQueue)),
            .init(name: "a main-actor job is the session's", works: mainActor),
        ])
    }

    /// Runs `probe` in a `Task { @MainActor in … }` started by the calling task and returns its answer; false when the
    /// main actor runs nothing within ``mainActorWait``.
    private static func mainActorHop(_ probe: @escaping @MainActor @Sendable () -> Bool) async -> Bool {
        let waiting = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        let answer: @Sendable (Bool) -> Void = { value in waiting.withCheckedLock { $0.take() }?.resume(returning: value) }
        return await withCheckedContinuation { continuation in
            waiting.withCheckedLock { $0 = continuation }
            Task { @MainActor in answer(probe()) }
            // The bound is scenariod's own wait, outside the session: no escape of the check's.
            SessionScope.$current.withValue(nil) {
                Task {
                    try? await Task.sleep(for: mainActorWait)
                    answer(false)
                }
            }
        }
    }
}
