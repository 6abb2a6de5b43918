public import Foundation
public import Services

/// A clock that a session owns: time moves only when told (frozen) or from a start instant in real time (running).
///
/// The clock also tracks the tasks that do a session's work (``spawn(_:)``). A session is *settled* when every such
/// task has finished or sleeps on this clock. ``advance(by:wakeLimit:)`` and ``set(to:wakeLimit:)`` wake sleepers one at a time in
/// deadline order (ties in the order they went to sleep) and let the session settle after each, so the same actions
/// always interleave the same way. This is why tests here use no wall-clock waits.
public actor VirtualClock: ClockService {
    /// How the clock moves on its own.
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// Moves only when advanced or set.
        case frozen
        /// Ticks in real time from the start instant; advancing and setting still work and add to it.
        case running
        /// Reads the system's time; sleepers wake in real time; it cannot be advanced or set.
        case system
    }

    private struct Sleeper {
        let id: Int
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The mode the clock was created with.
    public let mode: Mode
    private var frozenNow: Date
    private let realStart = ContinuousClock.now
    private var sleepers: [Sleeper] = []
    private var nextSleeperID = 0
    private var activeTasks = 0
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var nextTaskID = 0
    private var settleWaiters: [CheckedContinuation<Void, Never>] = []
    private var ticker: Task<Void, Never>?
    private var tickHandler: (@Sendable () async -> Void)?

    /// Whether clients may advance or set it (every mode but ``Mode/system``).
    public nonisolated var isMovable: Bool { mode != .system }

    /// Creates a clock that reads `start` now (the system's time for ``Mode/system``).
    public init(start: Date, mode: Mode) {
        self.frozenNow = start
        self.mode = mode
    }

    /// The current instant on this clock.
    public func now() -> Date {
        switch mode {
        case .frozen: frozenNow
        case .running: frozenNow.addingTimeInterval((ContinuousClock.now - realStart).seconds)
        case .system: Date()
        }
    }

    /// Suspends until the clock reaches now + `duration`; returns at once for a duration of zero or less.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now().addingTimeInterval(duration.seconds))
    }

    /// Suspends until the clock reaches `deadline`.
    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        guard deadline > now() else { return }
        let id = nextSleeperID
        nextSleeperID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                sleepersChanged()
            }
        } onCancel: {
            Task { await self.cancelSleeper(id) }
        }
    }

    /// The number of tasks asleep on this clock.
    public var sleeperCount: Int { sleepers.count }

    /// Starts `operation` in a task whose work counts towards ``settle()``.
    @discardableResult
    public func spawn(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        activeTasks += 1
        let id = nextTaskID
        nextTaskID += 1
        let task = Task {
            await operation()
            self.taskFinished(id)
        }
        tasks[id] = task
        return task
    }

    /// Cancels every spawned task and the running clock's timer, and waits until the tasks have finished.
    public func shutDown() async {
        ticker?.cancel()
        ticker = nil
        let running = Array(tasks.values)
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Returns once every spawned task has finished or sleeps on this clock.
    public func settle() async {
        guard !isSettled else { return }
        await withCheckedContinuation { settleWaiters.append($0) }
    }

    /// Moves the clock forward by `duration`, waking each sleeper whose deadline it passes, in deadline order.
    /// - Parameters:
    ///   - duration: How far to move forward (``set(to:wakeLimit:)`` is the way back).
    ///   - wakeLimit: The most sleepers to wake; past it the clock stops where it got to.
    /// - Returns: false when the limit stopped the clock short of its target.
    @discardableResult
    public func advance(by duration: Duration, wakeLimit: Int = .max) async -> Bool {
        await move(to: now().addingTimeInterval(duration.seconds), wakeLimit: wakeLimit)
    }

    /// Sets the clock to `instant`. Moving forward wakes sleepers as ``advance(by:wakeLimit:)`` does; moving back
    /// wakes none.
    /// - Parameters:
    ///   - instant: Where the clock then reads.
    ///   - wakeLimit: The most sleepers to wake; past it the clock stops where it got to.
    /// - Returns: false when the limit stopped the clock short of its target.
    @discardableResult
    public func set(to instant: Date, wakeLimit: Int = .max) async -> Bool {
        await move(to: instant, wakeLimit: wakeLimit)
    }

    /// Calls `action` after real time wakes sleepers of a running clock and the session has settled.
    public func onTick(_ action: @escaping @Sendable () async -> Void) {
        tickHandler = action
    }

    private var isSettled: Bool { activeTasks <= sleepers.count }

    private func move(to target: Date, wakeLimit: Int = .max) async -> Bool {
        await settle()
        var woken = 0
        while let next = earliestSleeper(dueBy: target) {
            // A periodic task and a long move mean unbounded work (a refresh every 15 minutes for 400 years):
            // stop where the limit is reached rather than hold the session for hours.
            guard woken < wakeLimit else {
                sleepersChanged()
                return false
            }
            shift(to: max(now(), sleepers[next].deadline))
            sleepers.remove(at: next).continuation.resume()
            woken += 1
            await settle()
        }
        shift(to: target)
        sleepersChanged()
        return true
    }

    /// Makes `now()` read `instant` (the system clock cannot be shifted; it only wakes what is due).
    private func shift(to instant: Date) {
        guard mode != .system else { return }
        frozenNow = frozenNow.addingTimeInterval(instant.timeIntervalSince(now()))
    }

    private func earliestSleeper(dueBy target: Date) -> Int? {
        let due = sleepers.indices.filter { sleepers[$0].deadline <= target }
        return due.min { (sleepers[$0].deadline, sleepers[$0].id) < (sleepers[$1].deadline, sleepers[$1].id) }
    }

    private func cancelSleeper(_ id: Int) {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return }
        sleepers.remove(at: index).continuation.resume(throwing: CancellationError())
        sleepersChanged()
    }

    private func taskFinished(_ id: Int) {
        tasks[id] = nil
        activeTasks -= 1
        resumeSettleWaitersIfSettled()
    }

    private func sleepersChanged() {
        resumeSettleWaitersIfSettled()
        scheduleTicker()
    }

    private func resumeSettleWaitersIfSettled() {
        guard isSettled else { return }
        let waiters = settleWaiters
        settleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// For a running clock, sleeps in real time until the earliest deadline, then wakes what is due.
    private func scheduleTicker() {
        guard mode != .frozen else { return }
        ticker?.cancel()
        guard let earliest = sleepers.map(\.deadline).min() else { return }
        let wait = max(0, earliest.timeIntervalSince(now()))
        ticker = Task {
            try? await Task.sleep(for: .seconds(wait))
            guard !Task.isCancelled else { return }
            await self.tick()
        }
    }

    private func tick() async {
        ticker = nil
        _ = await move(to: now())
        await tickHandler?()
    }
}
