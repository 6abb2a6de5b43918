import Fakes
@testable import SessionRuntime
import Testing

/// The check a daemon makes at start, in this (dynamically linked) test binary: every part of task ownership works.
@Suite struct TaskOwnershipCheckTests {
    @Test func everyPartWorksInADynamicallyLinkedBinary() async {
        let check = await TaskOwnership.check()
        #expect(check.parts.map(\.name) == [
            "a Task {} runs on its session's executor", "a Task.detached is reported", "a wall-clock sleep is reported",
            "a Date() read is reported", "a DispatchQueue.async is reported", "a main-actor job is the session's",
        ])
        #expect(check.isComplete, "\(check.summary)")
        #expect(check.missing.isEmpty && check.summary.hasPrefix("complete: a Task {} runs"))
        // Kept for the process: the hooks do not change.
        #expect(await TaskOwnership.check() == check)
    }

    /// What a binary without the hooks would say: the missing parts and the flags that bring them.
    @Test func anIncompleteCheckSaysWhatIsMissingAndHowToLink() {
        let check = TaskOwnershipCheck(parts: [.init(name: "a Task {} runs on its session's executor", works: false),
                                               .init(name: "a Date() read is reported", works: true)])
        #expect(!check.isComplete && check.missing == ["a Task {} runs on its session's executor"])
        #expect(check.summary.hasPrefix("incomplete: a Task {} runs on its session's executor do not work in this binary."))
        #expect(check.summary.hasSuffix("-Xlinker --wrap=swift_task_create -Xlinker --wrap=dispatch_after_f -Xlinker --wrap=dispatch_after -Xlinker --wrap=dispatch_async -Xlinker --wrap=dispatch_async_f"))
    }
}
