public import Fakes
public import Foundation
public import Services

/// A scenario after reading, validation and `extends` resolution: everything a session needs, fixtures loaded.
public struct Scenario: Sendable {
    /// The directory name, which is the scenario's name.
    public var name: String
    /// One line saying what the scenario shows.
    public var description: String
    /// The name of the Model it runs.
    public var model: String
    /// The scenario's directory.
    public var directory: URL
    /// The scenarios this one extends, nearest first.
    public var ancestors: [String]
    /// Where the session's clock starts and how it moves.
    public var clock: ClockSettings
    /// The key-value seed: JSON bytes by key.
    public var seed: [String: Data]
    /// The network fake's routes, tried in order.
    public var routes: [Route]
    /// What a request that matches no route gets.
    public var unmatched: TransportError
}

/// A scenario's clock: its start instant and mode.
public struct ClockSettings: Sendable, Hashable {
    /// Used when a scenario says nothing about the clock.
    public static let `default` = ClockSettings(start: Date(timeIntervalSince1970: 1_767_225_600), mode: .frozen)

    /// The instant the clock reads when a session starts.
    public var start: Date
    /// Frozen or running.
    public var mode: VirtualClock.Mode

    /// Creates clock settings.
    public init(start: Date, mode: VirtualClock.Mode) {
        self.start = start
        self.mode = mode
    }
}
