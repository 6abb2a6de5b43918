public import Fakes
public import Foundation
public import Services
import Synchronization

/// A clock that a session owns: time moves only when told (frozen) or from a start instant in real time (running).
///
/// The clock belongs to a session's ``SessionScope``: work it starts (``spawn(_:)``) and every task that work
/// starts runs on the scope's ``SessionExecutor``, and the session is *settled* when none of it is ready to run
/// (``settle()``). ``advance(by:wakeLimit:)`` and ``set(to:wakeLimit:)`` wake sleepers one at a time in deadline
/// order (ties in the order they went to sleep, or as the scope's ``SchedulingOrder`` chooses) and let the session
/// settle after each, so the same actions always interleave the same way. This is why tests here use no
/// wall-clock waits.
public actor VirtualClock: ClockService {
    /// How the clock moves on its own (the scenario's `clock.mode`).
    public typealias Mode = ClockMode

    private struct Sleeper {
        let id: Int
        let deadline: Date
        /// A sleep of the session's own machinery (a fake server's delay), which the session's end resumes with
        /// `CancellationError` rather than parks.
        var endsWithSession = false
        let waker: Waker
    }

    /// What a sleeper's wake does: resume a sleeping task, or call an action (``call(at:_:)``).
    private enum Waker {
        // Unsafe rather than checked: a sleeper of a session let go of is dropped unresumed on purpose (shutDown()).
        case task(UnsafeContinuation<Void, any Error>)
        case call(@Sendable () -> Void)

        func wake() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .call(let action): action()
            }
        }
    }

    /// The mode the clock was created with.
    public let mode: Mode
    /// Where a frozen clock stands (a running one, where it stood at `realStart`). Behind a lock so that reading
    /// the time needs no hop onto the session's executor: a client's read never queues among the Model's jobs.
    private let frozenNow: Mutex<Date>
    /// Sleepers woken so far, by moves and ticks alike.
    private let wakes = Atomic<Int>(0)
    private let realStart = ContinuousClock.now
    private var sleepers: [Sleeper] = []
    /// The earliest sleeper's deadline, behind a lock so that a client reads it without a hop onto the session's
    /// executor, as it reads the time.
    private let earliestDeadline = Mutex<Date?>(nil)
    private var nextSleeperID = 0
    /// What the clock's lock guards. A struct, not a tuple: a closure in a tuple inside the generic `Mutex` is
    /// re-wrapped in reabstraction thunks at every `withLock`, and a chain of a million thunks overflows the stack
    /// when the clock is released (a session that had streamed 30,000 chunks crashed the daemon as it closed).
    private struct Spawned {
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextID = 0
        var tickHandler: (@Sendable () async -> Void)?
    }

    /// The tasks ``spawn(_:)`` started and the tick handler, behind a lock so that starting work and setting the
    /// handler need no hop onto the session's executor (a hop costs a thread switch on every action).
    private let spawned = Mutex(Spawned())
    /// Sleepers whose task was cancelled, noted synchronously by the cancellation handler.
    private let cancelledSleepers = Mutex<Set<Int>>([])
    /// The session's work, and where it runs.
    public nonisolated let scope: SessionScope
    private let order: SchedulingOrder

    /// The session's executor: what the clock does is the session's work, counted and ordered with the rest.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { scope.executor.asUnownedSerialExecutor() }
    private var ticker: Task<Void, Never>?

    /// Whether clients may advance or set it (every mode but ``/Fakes/ClockMode/system``).
    public nonisolated var isMovable: Bool { mode != .system }

    /// Creates a clock that reads `start` now (the system's time for ``/Fakes/ClockMode/system``), for the session `scope`.
    public init(start: Date, mode: Mode, scope: SessionScope = SessionScope()) {
        self.frozenNow = Mutex(start)
        self.mode = mode
        self.scope = scope
        order = scope.executor.order
    }

    /// The current instant on this clock.
    public nonisolated func now() -> Date {
        switch mode {
        case .frozen: frozenNow.withCheckedLock { $0 }
        case .running: frozenNow.withCheckedLock { $0 }.addingTimeInterval((ContinuousClock.now - realStart).seconds)
        case .system: TaskOwnership.readingWallClock { Date() }
        }
    }

    /// Suspends until the clock reaches now + `duration`; returns at once for a duration of zero or less.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now().addingTimeInterval(duration.seconds))
    }

    /// Suspends until the clock reaches `deadline`.
    public func sleep(until deadline: Date) async throws {
        try await sleep(until: deadline, endingWithSession: false)
    }

    /// Suspends for `duration` as the session's own machinery does (a fake server's delay before it answers): the
    /// session's end resumes the sleep with `CancellationError`, so the call waiting on it fails as cancelled and its
    /// task finishes, instead of being parked for good with everything it holds (a soak deleting sessions during a
    /// delayed answer grew 4 MB a minute). A Model's own sleeps are parked: they must never fire into anything.
    public func sleepEndingWithSession(for duration: Duration) async throws {
        try await sleep(until: now().addingTimeInterval(duration.seconds), endingWithSession: true)
    }

    private func sleep(until deadline: Date, endingWithSession: Bool) async throws {
        scope.checkCaller(of: "clock.sleep")
        if scope.isClosed, endingWithSession { throw CancellationError() }
        if scope.isClosed {
            // The session let go of this clock: whatever sleeps on it now (a loop that ignored its cancellation, a
            // Model's own timer) is parked here for good, rather than spin or touch a later session.
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        try Task.checkCancellation()
        guard deadline > now() else { return }
        let id = nextSleeperID
        nextSleeperID += 1
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                sleepers.append(Sleeper(id: id, deadline: deadline, endsWithSession: endingWithSession, waker: .task(continuation)))
                earliestDeadline.withCheckedLock { $0 = min($0 ?? deadline, deadline) }
                sleepersChanged()
            }
        } onCancel: {
            // Noted at once (the handler runs as the task is cancelled), so shutDown() wakes it rather than park it.
            cancelledSleepers.withCheckedLock { _ = $0.insert(id) }
            // A clock shutting down wakes its cancelled sleepers itself: no task (and thread woken) per sleeper.
            guard !scope.isClosed else { return }
            Task { await self.cancelSleeper(id) }
        }
    }

    /// Calls `action` when the clock reaches `deadline`, in its turn among the sleepers (the same order, ties and
    /// seed as a task asleep until then): a wake that needs no task of its own, such as a stream's next event, where
    /// a task per event cost more than the event. At once when `deadline` has passed; never once the session has let
    /// go of the clock. Returns the number ``cancelCall(_:)`` takes, nil when it called or will never call.
    public func call(at deadline: Date, _ action: @escaping @Sendable () -> Void) -> Int? {
        guard !scope.isClosed else { return nil }
        guard deadline > now() else {
            action()
            return nil
        }
        let id = nextSleeperID
        nextSleeperID += 1
        sleepers.append(Sleeper(id: id, deadline: deadline, waker: .call(action)))
        earliestDeadline.withCheckedLock { $0 = min($0 ?? deadline, deadline) }
        sleepersChanged()
        return id
    }

    /// Forgets the call numbered `id` (``call(at:_:)``) if it has not been made.
    public func cancelCall(_ id: Int) {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return }
        _ = removeSleeper(at: index)
        sleepersChanged()
    }

    /// How many sleepers the clock has woken since it was made: a move that leaves it as it was woke nothing, so
    /// the session's work did not run.
    public nonisolated var wakeCount: Int { wakes.load(ordering: .acquiring) }

    /// The earliest instant a sleeper waits for (a Model's timer, a fake server's delay), or nil when none sleeps:
    /// where a move forward first wakes something, so a client that stops there sees every state the Model passes
    /// through.
    public nonisolated var nextWake: Date? { earliestDeadline.withCheckedLock { $0 } }

    /// The number of tasks asleep on this clock.
    public var sleeperCount: Int { sleepers.count }

    /// Starts `operation` as the session's work (see ``SessionScope/start(_:)``).
    @discardableResult
    public nonisolated func spawn(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        // Registered under the lock before the task can finish and remove itself.
        spawned.withCheckedLock { spawned in
            let id = spawned.nextID
            spawned.nextID += 1
            let task = scope.start {
                await operation()
                self.taskFinished(id)
            }
            spawned.tasks[id] = task
            return task
        }
    }

    /// Lets go of the session's work: closes the scope, cancels the running clock's timer and the tasks it
    /// spawned (their sleeps throw `CancellationError`, so a `run()` loop ends). A task of the Model's own
    /// (`Task {}`) still asleep here is parked for good, never woken, and so is any task that sleeps on the clock
    /// later: a timer of a deleted, reset or rewound session never fires into anything, even one that ignores
    /// cancellation (`try?`). The cost is the parked tasks' memory.
    public func shutDown() {
        ticker?.cancel()
        ticker = nil
        scope.close()
        for task in spawned.withCheckedLock({ Array($0.tasks.values) }) { task.cancel() }
        let cancelled = cancelledSleepers.withCheckedLock { $0 }
        for sleeper in sleepers where cancelled.contains(sleeper.id) || sleeper.endsWithSession {
            if case .task(let continuation) = sleeper.waker { continuation.resume(throwing: CancellationError()) }
        }
        sleepers = []
        earliestDeadline.withCheckedLock { $0 = nil }
    }

    /// Starts `operation` as the session's work (``spawn(_:)``) and returns once the session has settled, running
    /// what it makes ready on the caller's thread meanwhile (``SessionExecutor/settle(startingWith:)``).
    public nonisolated func spawnAndSettle(_ operation: @escaping @Sendable () async -> Void) async {
        await scope.executor.settle { spawn(operation) }
    }

    /// Returns once the session has settled: every task it owns is finished or waits on this clock (or on a
    /// response that waits on it).
    public nonisolated func settle() async {
        await scope.executor.settle()
    }

    /// Moves the clock forward by `duration`, waking each sleeper whose deadline it passes, in deadline order.
    /// - Parameters:
    ///   - duration: How far to move forward (``set(to:wakeLimit:)`` is the way back).
    ///   - wakeLimit: The most sleepers to wake; past it the clock stops where it got to.
    /// - Returns: false when the limit stopped the clock short of its target.
    @discardableResult
    public nonisolated func advance(by duration: Duration, wakeLimit: Int = .max) async -> Bool {
        await move(to: now().addingTimeInterval(duration.seconds), wakeLimit: wakeLimit)
    }

    /// Sets the clock to `instant`. Moving forward wakes sleepers as ``advance(by:wakeLimit:)`` does; moving back
    /// wakes none.
    /// - Parameters:
    ///   - instant: Where the clock then reads.
    ///   - wakeLimit: The most sleepers to wake; past it the clock stops where it got to.
    /// - Returns: false when the limit stopped the clock short of its target.
    @discardableResult
    public nonisolated func set(to instant: Date, wakeLimit: Int = .max) async -> Bool {
        await move(to: instant, wakeLimit: wakeLimit)
    }

    /// Calls `action` after real time wakes sleepers of a running clock, or something from outside resumes the
    /// session's work (``reportOutsideArrival()``), and the session has settled.
    public nonisolated func onTick(_ action: @escaping @Sendable () async -> Void) {
        spawned.withCheckedLock { $0.tickHandler = action }
    }

    /// Wakes what is due by `target`, one sleeper at a time, settling the session after each. Each wake and what it
    /// makes ready run on the caller's thread (``SessionExecutor/run(_:)``), and the settles wait from outside the
    /// session's work: a move costs no switch onto the session's queue and back for each sleeper. A long move goes on
    /// off the caller's thread after a slice (``LongRun``).
    private nonisolated func move(to target: Date, wakeLimit: Int = .max) async -> Bool {
        await settle()
        var woken = 0
        var arrived = true
        await LongRun.repeating {
            // A periodic task and a long move mean unbounded work (a refresh every 15 minutes for 400 years):
            // stop where the limit is reached rather than hold the session for hours.
            let stopping = woken >= wakeLimit
            switch await scope.executor.run({ await self.wakeNext(dueBy: target, stopping: stopping) }) {
            case .woke:
                woken += 1
                await settle()
                return true
            case .stopped:
                arrived = false
                return false
            case .arrived:
                return false
            }
        }
        return arrived
    }

    /// What one turn of a move did.
    private enum Wake: Sendable {
        /// Woke the next sleeper due.
        case woke
        /// Stopped short: a sleeper is due, and the move has woken as many as it may.
        case stopped
        /// None is due: the clock reads the target.
        case arrived
    }

    /// Wakes the next sleeper due by `target` (the clock moving to its deadline), or moves to `target` when none is.
    private func wakeNext(dueBy target: Date, stopping: Bool) -> Wake {
        guard let next = earliestSleeper(dueBy: target) else {
            shift(to: target)
            sleepersChanged()
            return .arrived
        }
        guard !stopping else {
            sleepersChanged()
            return .stopped
        }
        shift(to: max(now(), sleepers[next].deadline))
        wakes.add(1, ordering: .releasing)
        removeSleeper(at: next).waker.wake()
        return .woke
    }

    /// Makes `now()` read `instant` (the system clock cannot be shifted; it only wakes what is due).
    private func shift(to instant: Date) {
        guard mode != .system else { return }
        let offset = instant.timeIntervalSince(now())
        frozenNow.withCheckedLock { $0 = $0.addingTimeInterval(offset) }
    }

    /// The sleeper to wake next: the earliest deadline; of several due at that instant, the first asleep, or
    /// the one the session's order picks.
    private func earliestSleeper(dueBy target: Date) -> Int? {
        guard let deadline = sleepers.lazy.map(\.deadline).filter({ $0 <= target }).min() else { return nil }
        let due = sleepers.indices.filter { sleepers[$0].deadline == deadline }.sorted { sleepers[$0].id < sleepers[$1].id }
        return due[order.pick(among: due.count)]
    }

    private func cancelSleeper(_ id: Int) {
        cancelledSleepers.withCheckedLock { _ = $0.remove(id) }
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return }
        if case .task(let continuation) = removeSleeper(at: index).waker { continuation.resume(throwing: CancellationError()) }
        sleepersChanged()
    }

    /// Removes a sleeper, finding the earliest deadline again only when it was the earliest's (a wake's usually is).
    private func removeSleeper(at index: Int) -> Sleeper {
        let sleeper = sleepers.remove(at: index)
        if sleeper.deadline == earliestDeadline.withCheckedLock({ $0 }) {
            earliestDeadline.withCheckedLock { $0 = sleepers.lazy.map(\.deadline).min() }
        }
        return sleeper
    }

    private nonisolated func taskFinished(_ id: Int) {
        spawned.withCheckedLock { _ = $0.tasks.removeValue(forKey: id) }
    }

    private func sleepersChanged() {
        scheduleTicker()
    }

    /// For a running clock, sleeps in real time until the earliest deadline, then wakes what is due.
    private func scheduleTicker() {
        guard mode != .frozen else { return }
        ticker?.cancel()
        guard let earliest = sleepers.map(\.deadline).min() else { return }
        let wait = max(0, earliest.timeIntervalSince(now()))
        // The timer is the clock's, not the Model's: outside the session's scope, so its real-time sleep is no
        // escape; the sleepers it wakes resume on the session's executor all the same.
        ticker = SessionScope.$current.withValue(nil) {
            Task {
                try? await Task.sleep(for: .seconds(wait))
                guard !Task.isCancelled else { return }
                await self.tick()
            }
        }
    }

    private func tick() async {
        ticker = nil
        await reportSettled()
    }

    /// Something from outside the session (a live WebSocket's message) resumed its work between steps: once the
    /// session has settled, the tick handler runs, as after a running clock's tick, so clients see what changed.
    public nonisolated func reportOutsideArrival() {
        // The report is the daemon's, not the Model's: outside the session's scope.
        SessionScope.$current.withValue(nil) {
            Task { await self.reportSettled() }
        }
    }

    private func reportSettled() async {
        _ = await move(to: now())
        await spawned.withCheckedLock(\.tickHandler)?()
    }
}
