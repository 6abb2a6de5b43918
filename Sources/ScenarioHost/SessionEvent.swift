public import Foundation
public import Services

/// Something that happened in a session, as its event stream reports it.
public enum SessionEvent: Sendable, Hashable, Codable {
    /// The Model's state is now `state`.
    case stateChanged(state: ModelState)
    /// The network fake saw a request.
    case requestJournaled(exchange: NetworkExchange)
    /// The fake of a team's service `service` changed its state to `state` (sent once the Model has settled).
    case serviceChanged(service: String, state: JSONValue)
    /// The session's clock was advanced or set and now reads `now`; sent after the state changes the move caused.
    case clockMoved(now: Date)
}
