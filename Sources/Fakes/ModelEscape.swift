/// Work of a Model that its session cannot see or order, so what it does is not part of the session's
/// deterministic run (DESIGN §4): reported as `modelEscaped`, never left silently wrong.
public struct ModelEscape: Sendable, Hashable, Codable {
    /// What escaped.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A `Task.detached`: it copies none of the session's task-local context, so the session cannot count it.
        case detachedTask
        /// A sleep on the wall clock (`Task.sleep`, `ContinuousClock`, `SuspendingClock`) instead of the session's.
        case wallClockSleep
        /// A read of the wall clock (`Date()`) instead of the session's clock, which a scenario fixes.
        case wallClockRead
        /// Work sent to a `DispatchQueue` (`async`, `asyncAfter`, `main.asyncAfter`): it runs on a queue the session
        /// neither counts nor orders.
        case dispatchQueue
        /// A call into the session's services from work the session did not start: a detached task, a thread, a
        /// `DispatchQueue`.
        case untrackedWork
        /// An answer from outside the session — a live server's, a durable key-value store's — in a session whose
        /// schedule is seeded: it arrives when it arrives, so the seed cannot fix the run.
        case unorderedArrival
    }

    /// What escaped.
    public let kind: Kind
    /// What the session saw, in a sentence.
    public let detail: String
    /// The action (or `run`, or a clock move) that was running, when the host knows it.
    public var during: String?

    /// An escape of `kind` described by `detail`.
    public init(kind: Kind, detail: String, during: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.during = during
    }

    /// What to do instead, for error messages.
    public var remedy: String {
        switch kind {
        case .detachedTask: "start the work with Task { … } (which the session owns) instead of Task.detached"
        case .wallClockSleep: "sleep on services.clock (clock.sleep(for:)) instead of Task.sleep or a system clock"
        case .wallClockRead: "read the time from services.clock (clock.now()) instead of Date()"
        case .dispatchQueue: "start a Task { … } (with services.clock.sleep for a delay) instead of using a DispatchQueue"
        case .untrackedWork: "do the work in a Task { … } started from perform or run, not in a thread, a DispatchQueue or a detached task"
        case .unorderedArrival: "where the run must repeat, fake the route (or replay a recording of it) and keep the store in memory, or leave the schedule unseeded"
        }
    }
}
