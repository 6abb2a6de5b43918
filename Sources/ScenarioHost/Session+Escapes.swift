import ControlAPI
import Fakes
import Logging
import SessionRuntime

// Work of the Model the session could not see or order: reported on every channel, and a failed step when the
// host's policy says so.
extension Session {
    // MARK: Escapes

    /// The most escapes a session lists; the oldest are kept, since the first escape is the one to fix.
    static let escapeLimit = 64

    /// Reports what the Model did outside the session during `step` (an action's name, `run`, a clock move): in the
    /// journal log, on the event stream (before the step's `historyChanged`, which stays last) and in the session's
    /// info. Returns what it reported, for ``failOnEscapes(_:during:)`` once the step is kept.
    func reportEscapes(during step: String) -> [ModelEscape] {
        guard let runtime else { return [] }
        let found = runtime.clock.scope.takeEscapes().map { escape in
            var escape = escape
            escape.during = step
            return escape
        }
        for escape in found {
            if escapes.count < Self.escapeLimit { escapes.append(escape) }
            logger.warning("model escaped the session during \(step): \(escape.detail); \(escape.remedy)",
                           metadata: ["escape": "\(escape.kind.rawValue)", "step": "\(step)"])
            events.publish(.modelEscaped(escape: escape))
        }
        return found
    }

    /// Fails the step when it escaped and the host's policy is ``EscapePolicy/fail``. The step is kept all the same:
    /// it happened, and a rewind replays it.
    /// - Throws: ``HostError`` `.modelEscaped`, naming each escape and what to write instead.
    func failOnEscapes(_ found: [ModelEscape], during step: String) throws(HostError) {
        guard escapePolicy == .fail, !found.isEmpty else { return }
        let what = found.map { "\($0.detail) (\($0.kind.rawValue)); \($0.remedy)" }.joined(separator: "; and ")
        throw HostError(.modelEscaped, "the Model of session '\(id)' did work the session cannot see or order during \(step), so its state is not the scenario's alone: \(what). (A daemon started with --model-escapes warn only reports this.)")
    }
}
