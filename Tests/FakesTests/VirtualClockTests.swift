import Fakes
import Foundation
import SessionRuntime
import Testing

actor Recorder<Value: Sendable> {
    private(set) var values: [Value] = []
    func append(_ value: Value) { values.append(value) }
}

@Suite struct VirtualClockTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func sleepersWakeInDeadlineOrderEachAtItsOwnDeadline() async throws {
        let clock = VirtualClock(start: start, mode: .frozen)
        let woke = Recorder<(String, TimeInterval)>()
        for (name, seconds) in [("c", 3), ("a", 1), ("b", 2), ("a2", 1)] {
            clock.spawn {
                try? await clock.sleep(for: .seconds(seconds))
                await woke.append((name, clock.now().timeIntervalSince(self.start)))
            }
        }
        await clock.settle()
        #expect(await clock.sleeperCount == 4)
        await clock.advance(by: .seconds(5))
        let order = await woke.values
        #expect(order.map(\.0) == ["a", "a2", "b", "c"])
        #expect(order.map(\.1) == [1, 1, 2, 3])
        #expect(clock.now() == start.addingTimeInterval(5))
    }

    @Test func advancingWakesOnlyWhatIsDue() async throws {
        let clock = VirtualClock(start: start, mode: .frozen)
        let woke = Recorder<Int>()
        for seconds in [10, 20] {
            clock.spawn {
                try? await clock.sleep(for: .seconds(seconds))
                await woke.append(seconds)
            }
        }
        await clock.advance(by: .seconds(15))
        #expect(await woke.values == [10])
        #expect(await clock.sleeperCount == 1)
    }

    @Test func theNextWakeIsTheEarliestSleepersDeadlineAndNoneWhenNothingSleeps() async throws {
        let clock = VirtualClock(start: start, mode: .frozen)
        #expect(clock.nextWake == nil)
        let sleepers = (0..<5_000).map { index in
            clock.spawn { try? await clock.sleep(for: .milliseconds(1000 + index % 7 * 250)) }
        }
        await clock.settle()
        #expect(clock.nextWake == start.addingTimeInterval(1))
        await clock.advance(by: .milliseconds(1100))
        #expect(clock.nextWake == start.addingTimeInterval(1.25))
        // A cancelled sleeper is no wake.
        for task in sleepers { task.cancel() }
        for task in sleepers { await task.value }
        #expect(clock.nextWake == nil)
    }

    @Test func aWokenTaskThatSleepsAgainIsWokenAgainWithinTheSameAdvance() async throws {
        let clock = VirtualClock(start: start, mode: .frozen)
        let ticks = Recorder<TimeInterval>()
        clock.spawn {
            while true {
                do { try await clock.sleep(for: .seconds(60)) } catch { return }
                await ticks.append(clock.now().timeIntervalSince(self.start))
            }
        }
        await clock.advance(by: .seconds(200))
        #expect(await ticks.values == [60, 120, 180])
        await clock.shutDown()
        #expect(await clock.sleeperCount == 0)
    }

    @Test func settingTheClockBackWakesNothing() async throws {
        let clock = VirtualClock(start: start, mode: .frozen)
        let woke = Recorder<Int>()
        clock.spawn {
            try? await clock.sleep(for: .seconds(10))
            await woke.append(1)
        }
        await clock.set(to: start.addingTimeInterval(-100))
        #expect(await woke.values.isEmpty)
        #expect(clock.now() == start.addingTimeInterval(-100))
        await clock.set(to: start.addingTimeInterval(10))
        #expect(await woke.values == [1])
    }

    @Test func cancellingASleepingTaskEndsItsSleep() async throws {
        let clock = VirtualClock(start: start, mode: .frozen)
        let outcome = Recorder<String>()
        let task = clock.spawn {
            do {
                try await clock.sleep(for: .seconds(10))
                await outcome.append("woke")
            } catch {
                await outcome.append("cancelled")
            }
        }
        await clock.settle()
        task.cancel()
        await task.value
        #expect(await outcome.values == ["cancelled"])
        #expect(await clock.sleeperCount == 0)
    }

    @Test func aRunningClockTicksFromItsStartAndWakesSleepersInRealTime() async throws {
        let clock = VirtualClock(start: start, mode: .running)
        let task = clock.spawn {
            try? await clock.sleep(for: .milliseconds(20))
        }
        await task.value
        #expect(clock.now() > start.addingTimeInterval(0.02))
        #expect(await clock.sleeperCount == 0)
    }

    /// A clock that started 30,000 tasks, with a tick handler set, is released without a recursion that grows with
    /// them: a handler kept in a tuple inside the clock's lock was wrapped in four thunks per task, and their release
    /// overflowed the stack (seen as SIGSEGV here before the fix).
    @Test func aClockThatStartedThirtyThousandTasksIsLetGoOf() async {
        weak var released: VirtualClock?
        do {
            let clock = VirtualClock(start: start, mode: .frozen)
            clock.onTick {}
            for _ in 0..<30_000 { clock.spawn {} }
            await clock.settle()
            await clock.shutDown()
            released = clock
        }
        #expect(released == nil)
    }
}
