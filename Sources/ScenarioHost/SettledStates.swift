import Synchronization

/// The state of every settled session, readable from any thread without waiting for an actor: the control server
/// answers `GET …/state` from here on its event loop (BENCHMARKS.md: the control API). A session is listed only
/// while no operation of its runs and its Model is settled, so what is read here is what ``Session/state()``
/// would return.
public final class SettledStates: Sendable {
    private let states = Mutex<[String: ModelState]>([:])

    init() {}

    /// The settled state of session `id`; nil while it is busy, or when there is no such session.
    public func state(of id: String) -> ModelState? {
        states.withLock { $0[id] }
    }

    func set(_ state: ModelState?, for id: String) {
        states.withLock { $0[id] = state }
    }
}
