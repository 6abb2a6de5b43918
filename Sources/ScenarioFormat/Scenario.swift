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
    /// What a request that matches no route gets (fake mode only; live and record send it to the network).
    public var unmatched: TransportError
    /// Fake, live or record, and how live requests reach servers.
    public var network: NetworkSettings
    /// Where the key-value state lives: in memory from the seed, or in a database file that outlives sessions.
    public var keyValueStore: KeyValueStoreKind
    /// Where identifiers and random choices come from.
    public var random: RandomSettings
    /// The seed that orders work ready at the same moment (`schedule: { seed: 7 }`); nil keeps first-ready-first.
    public var scheduleSeed: UInt64?
    /// Each service the daemon's team defines, by name: its fake's initial state, or live.
    public var services: [String: ServiceSetting]
    /// Which scenario wrote each setting, by its JSON pointer in a scenario file: `/clock`, `/network/mode`,
    /// `/keyValue/seed/items`, a route by its name (`/network/routes/create-item`), a team service's value
    /// (`/notifications/permission`). The value lists the scenario that set it, then any that changed it (a route's
    /// `extends`). A setting not listed is the default, or a team service's initial state.
    public var sources: [String: [String]] = [:]
    /// The service sections as written (merged along `extends`), for a child scenario to merge into.
    var serviceSections: [String: LocatedValue] = [:]
    /// Where its fixture paths are found: its own directory, then its ancestors', nearest first.
    var fixtureDirectories: [URL] = []

    /// Whether any request of a session can reach the real network: a live or record scenario, or a live route.
    /// When false, a session builds no network client at all.
    public var usesLiveNetwork: Bool {
        network.mode != .fake || routes.contains(where: \.isLive)
    }
}

/// Where a scenario's key-value state lives.
public enum KeyValueStoreKind: String, Sendable, Hashable, CaseIterable {
    /// In memory, from the seed; each session has its own and a reset restores the seed.
    case memory
    /// In a SQLite file in the daemon's state directory, one per scenario, shared by its sessions and kept
    /// across restarts; the seed is written when the file is created, and a reset writes it again.
    case durable
}

/// How a scenario's network behaves.
public struct NetworkSettings: Sendable, Hashable {
    /// Which network a session gets.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Routes answer; nothing reaches the real network except routes marked `live: true`.
        case fake
        /// Routes answer first; every other request goes to the real network.
        case live
        /// Every request goes to the real network and is kept in full, to be saved as a new scenario.
        case record
    }

    /// Used when a scenario says nothing about the network.
    public static let `default` = NetworkSettings()

    /// Fake, live or record.
    public var mode: Mode
    /// How long a live connection may take to establish.
    public var connectTimeout: Duration
    /// How long a live server may stay silent.
    public var readTimeout: Duration
    /// How many redirects live requests follow.
    public var redirects: Int
    /// Origins whose live requests go to another origin instead (`https://api.example` → `http://127.0.0.1:8080`).
    public var forward: [String: String]
    /// JSON pointers (`/user/ssn`) whose values a recording leaves out of request matchers and response fixtures,
    /// besides the fields that are always secrets (``/Services/JSONValue/secretFieldNames``).
    public var redact: [String]

    /// Creates network settings.
    public init(mode: Mode = .fake, connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(30),
                redirects: Int = 5, forward: [String: String] = [:], redact: [String] = []) {
        self.redact = redact
        self.mode = mode
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.redirects = redirects
        self.forward = forward
    }
}

/// A scenario's clock: its start instant, its mode, and the time zone people read it in.
public struct ClockSettings: Sendable, Hashable {
    /// Used when a scenario says nothing about the clock.
    public static let `default` = ClockSettings(start: Date(timeIntervalSince1970: 1_767_225_600), mode: .frozen)

    /// The instant the clock reads when a session starts.
    public var start: Date
    /// Frozen or running.
    public var mode: ClockMode
    /// The IANA time zone (`Europe/London`) in which people read this clock: the dashboard shows the time there.
    /// Only for reading: the clock is an instant, and the Model sees the same instant whatever the zone.
    public var timeZone: String?

    /// Creates clock settings.
    public init(start: Date, mode: ClockMode, timeZone: String? = nil) {
        self.start = start
        self.mode = mode
        self.timeZone = timeZone
    }
}

/// Where a scenario's identifiers and random choices come from.
public enum RandomSettings: Sendable, Hashable, CustomStringConvertible {
    /// Used when a scenario says nothing about randomness: deterministic, from seed 0.
    public static let `default` = RandomSettings.seeded(0)

    /// A sequence from the seed: the same in every session and run of the scenario, and again after a reset.
    case seeded(UInt64)
    /// The system's generator: different every time (`random: system`).
    case system

    /// `seed 42` or `system`, as listings show it.
    public var description: String {
        switch self {
        case .seeded(let seed): "seed \(seed)"
        case .system: "system"
        }
    }
}

/// How a session gets a service the daemon's team defines.
public enum ServiceSetting: Sendable {
    /// The fake, starting from this state (the definition's `State`; its section merged over the initial state).
    case fake(state: any Sendable)
    /// The live implementation (`NAME: live`).
    case live
}
