import Services
import Synchronization

/// The state of every settled session, readable from any thread without waiting for an actor: the control server
/// answers `GET …/state` from here on its event loop (BENCHMARKS.md: the control API). A session is listed only
/// while no operation of its runs and its Model is settled, so what is read here is what ``Session/state()``
/// would return.
public final class SettledStates: Sendable {
    /// A settled state and the number of the publication that listed it.
    public struct Entry: Sendable {
        /// The session's state.
        public let state: ModelState
        /// Never given twice by this host, so a reader that keeps what it made of a state (its encoded response)
        /// knows by this number alone whether that is still the state.
        public let version: UInt64
    }

    private let entries = Mutex<(byID: [String: Entry], published: UInt64)>(([:], 0))

    init() {}

    /// The settled state of session `id`; nil while it is busy, or when there is no such session.
    public func entry(of id: String) -> Entry? {
        entries.withCheckedLock { $0.byID[id] }
    }

    func set(_ state: ModelState?, for id: String) {
        entries.withCheckedLock { entries in
            guard let state else {
                entries.byID[id] = nil
                return
            }
            entries.published += 1
            entries.byID[id] = Entry(state: state, version: entries.published)
        }
    }
}
