public import Foundation
public import Services
public import Fakes

/// Something that happened in a session, as its event stream reports it.
public enum SessionEvent: Sendable, Hashable, Codable {
    /// The Model's state is now `state`.
    case stateChanged(state: ModelState)
    /// The network fake saw a request.
    case requestJournaled(exchange: NetworkExchange)
    /// A streamed answer delivered a chunk to the Model, or ended; `exchange` is its request's journal entry.
    case streamChanged(exchange: NetworkExchange)
    /// The fake of a team's service `service` changed its state to `state` (sent once the Model has settled).
    case serviceChanged(service: String, state: JSONValue)
    /// The session's clock was advanced or set and now reads `now`; sent after the state changes the move caused.
    case clockMoved(now: Date)
    /// The session's history changed: a step was kept, or a rewind or reset replaced it, and its newest step is now
    /// `newestStep`. Sent after the state and clock events of the same change, so a watcher that reloads the
    /// history, the key-value state and the journal then sees everything the change did.
    case historyChanged(newestStep: Int)
    /// The Model did work the session could not see or order (DESIGN §4); sent once the step that did it ends.
    case modelEscaped(escape: ModelEscape)
}
