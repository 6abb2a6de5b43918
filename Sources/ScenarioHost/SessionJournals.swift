import Services
import Synchronization

/// Every open session's journal by session id, readable from any thread without waiting for an actor: the control
/// server answers `GET …/journal` from here on its event loop (BENCHMARKS.md: journal reads at the bound). It lists
/// exactly the sessions the host does, so a read answers what ``Session/journalBody(unmatchedOnly:assemble:)``
/// of the host's session would (a journal read takes no turn of its session either).
public final class SessionJournals: Sendable {
    private let journals = Mutex<[String: SessionJournal]>([:])

    init() {}

    /// The journal's body of session `id`, as ``Session/journalBody(unmatchedOnly:assemble:)`` gives it; nil when
    /// the host has no such session.
    public func body<Body: Sendable>(of id: String, unmatchedOnly: Bool, assemble: (EncodedJournal) -> Body) -> Body? {
        guard let journal = journals.withCheckedLock({ $0[id] }) else { return nil }
        return journal.body(unmatchedOnly: unmatchedOnly, assemble: assemble)
    }

    func set(_ journal: SessionJournal?, for id: String) {
        journals.withCheckedLock { $0[id] = journal }
    }
}
