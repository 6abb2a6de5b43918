/// How a session's clock moves on its own: a scenario's `clock.mode`.
public enum ClockMode: String, Sendable, Codable, CaseIterable {
    /// Moves only when advanced or set.
    case frozen
    /// Ticks in real time from the start instant; advancing and setting still work and add to it.
    case running
    /// Reads the system's time; sleepers wake in real time; it cannot be advanced or set.
    case system
}
