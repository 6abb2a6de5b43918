public import Services
import Synchronization

/// What the fake of a team's service receives from its session: its state, which the scenario's section seeds and
/// the control API reads, replaces and patches (`GET`/`PUT`/`PATCH /v1/sessions/{id}/services/NAME`); the session's
/// clock and randomness; and the session's journal, for interactions a test wants to see.
///
/// A fake keeps everything it knows in ``state`` and changes it only through ``update(_:)``, so that a client
/// sees every change (a `serviceChanged` event once the Model settles) and a reset restores the scenario's state.
public final class ServiceFakeContext<State: Codable & Sendable & Equatable>: Sendable {
    /// The service's name (its scenario section).
    public let name: String
    /// The session's clock, to stamp or delay what the fake does.
    public let clock: any ClockService
    /// The session's randomness, for identifiers the fake makes.
    public let random: any RandomService
    private let storage: Mutex<(state: State, version: Int)>
    private let journalEntry: @Sendable (_ operation: String, _ detail: String?, _ outcome: String?) async -> Void

    package init(name: String, state: State, clock: any ClockService, random: any RandomService,
                 journal: @escaping @Sendable (_ operation: String, _ detail: String?, _ outcome: String?) async -> Void) {
        self.name = name
        self.clock = clock
        self.random = random
        self.storage = Mutex((state, 0))
        self.journalEntry = journal
    }

    /// The fake's state now.
    public var state: State { storage.withCheckedLock { $0.state } }

    /// Changes the state in place and returns what `body` returns; a change is reported to the session's clients.
    @discardableResult
    public func update<Result: Sendable, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withCheckedLock { (stored) throws(Failure) -> Result in
            var state = stored.state
            let result = try body(&state)
            if state != stored.state {
                stored.state = state
                stored.version += 1
            }
            return result
        }
    }

    /// Adds an entry to the session's journal, beside the network requests: `operation` (e.g. `post`), what it
    /// carried, and what became of it (e.g. `delivered`, `declined: card expired`).
    public func journal(_ operation: String, detail: String? = nil, outcome: String? = nil) async {
        await journalEntry(operation, detail, outcome)
    }

    /// Counts changes, so the session publishes only states that changed.
    package var version: Int { storage.withCheckedLock { $0.version } }

    /// Replaces the whole state (the control API's `PUT`, and its `PATCH` once the patch is applied).
    package func replace(with state: State) {
        update { $0 = state }
    }
}
