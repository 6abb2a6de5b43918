public import Foundation
public import Services

/// `POST /v1/sessions`.
public struct CreateSessionRequest: Codable, Sendable, Hashable {
    /// The scenario to run.
    public var scenario: String
    /// An id of the client's choosing (letters, digits, `.`, `_`, `-`; at most 64), or nil for one made up.
    public var id: String?
    /// Scenario sections for this session only, read as a scenario file that extends `scenario` would be:
    /// `network.routes` (extra routes, or replacements of same-named ones), `keyValue.seed` (merged by key),
    /// `clock`, `random`, a team's service sections.
    public var overrides: JSONValue?
    /// Give the session its own HTTP listener (a session endpoint); nil for none.
    public var endpoint: SessionEndpointRequest?

    /// A request for a session of `scenario`.
    public init(scenario: String, id: String? = nil, overrides: JSONValue? = nil, endpoint: SessionEndpointRequest? = nil) {
        self.scenario = scenario
        self.id = id
        self.overrides = overrides
        self.endpoint = endpoint
    }
}

/// A session as listings show it.
public struct SessionBody: Codable, Sendable, Hashable {
    /// The session's id, which every path of the session names.
    public var id: String
    /// The scenario it runs.
    public var scenario: String
    /// The Model the scenario names.
    public var model: String
    /// The session's clock.
    public var now: Date
    /// Requests in its journal.
    public var requests: Int
    /// How many of those matched no route.
    public var unmatchedRequests: Int
    /// Work of the Model the session could not see or order (`modelEscaped`), oldest first; empty when its run is
    /// wholly the session's.
    public var escapes: [ModelEscapeBody]
    /// What the session's stores hold, in bytes; nil from a daemon older than byte bounds.
    public var held: HeldBytesBody?
    /// The session's own HTTP listener, when it was created with one.
    public var endpoint: SessionEndpointBody?

    /// A session as the daemon lists it.
    public init(id: String, scenario: String, model: String, now: Date, requests: Int, unmatchedRequests: Int,
                escapes: [ModelEscapeBody] = [], held: HeldBytesBody? = nil, endpoint: SessionEndpointBody? = nil) {
        self.endpoint = endpoint
        self.id = id
        self.scenario = scenario
        self.model = model
        self.now = now
        self.requests = requests
        self.unmatchedRequests = unmatchedRequests
        self.escapes = escapes
        self.held = held
    }

    /// Decodes a session body; one from a daemon older than escapes has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        scenario = try container.decode(String.self, forKey: .scenario)
        model = try container.decode(String.self, forKey: .model)
        now = try container.decode(Date.self, forKey: .now)
        requests = try container.decode(Int.self, forKey: .requests)
        unmatchedRequests = try container.decode(Int.self, forKey: .unmatchedRequests)
        // Daemons before escapes were reported send none.
        escapes = try container.decodeIfPresent([ModelEscapeBody].self, forKey: .escapes) ?? []
        held = try container.decodeIfPresent(HeldBytesBody.self, forKey: .held)
        endpoint = try container.decodeIfPresent(SessionEndpointBody.self, forKey: .endpoint)
    }
}

/// What a session's stores hold, in bytes: what each keeps of what it was given (bodies, kept stream chunks,
/// action arguments, states), each store within the bound the daemon's flags set (`--journal-bytes`,
/// `--history-bytes`, `--event-buffer-bytes`, `--recording-bytes`; kept answers, 64 and 16 MiB a session).
public struct HeldBytesBody: Codable, Sendable, Hashable {
    /// The journal's entries.
    public var journal: Int
    /// The history's steps.
    public var history: Int
    /// Events waiting in the session's event streams for their readers.
    public var events: Int
    /// A recording session's exchanges.
    public var recording: Int
    /// The answers to requests sent from outside, kept to be read later (`"wait": false`).
    public var sent: Int
    /// All of them together.
    public var total: Int

    /// Held bytes as the daemon reports them.
    public init(journal: Int, history: Int, events: Int, recording: Int, sent: Int = 0) {
        self.journal = journal
        self.history = history
        self.events = events
        self.recording = recording
        self.sent = sent
        self.total = journal + history + events + recording + sent
    }
}

/// Work of a Model its session could not see or order: a `Task.detached`, a sleep on or a read of the wall clock,
/// work sent to a `DispatchQueue`, a service called from a thread or a `DispatchQueue`. The event `modelEscaped`
/// carries one; a session lists them.
public struct ModelEscapeBody: Codable, Sendable, Hashable {
    /// `detachedTask`, `wallClockSleep`, `wallClockRead`, `dispatchQueue`, `untrackedWork` or `unorderedArrival`.
    public var kind: String
    /// What the session saw.
    public var detail: String
    /// The step that was running: an action's name, `run`, or a clock move.
    public var during: String?
    /// What to write instead.
    public var remedy: String

    /// An escape as the daemon reports it.
    public init(kind: String, detail: String, during: String?, remedy: String) {
        self.kind = kind
        self.detail = detail
        self.during = during
        self.remedy = remedy
    }

    /// The escape in one sentence for a person: what, when, its kind and what to write instead.
    public var sentence: String { "\(detail) during \(during ?? "the run") (\(kind)); \(remedy)" }
}

/// `GET /v1/sessions/{id}/clock` and the answer of every clock move.
public struct ClockBody: Codable, Sendable, Hashable {
    /// The time on the session's clock.
    public var now: Date
    /// The earliest instant something sleeps until on the clock (a Model's timer, a delayed answer); absent when
    /// nothing does. Moving the clock there, and on from there, shows every state the Model passes through.
    public var nextWake: Date?
    /// The clock reading `now`, with its next wake.
    public init(now: Date, nextWake: Date? = nil) {
        self.now = now
        self.nextWake = nextWake
    }
}

/// `POST /v1/sessions/{id}/clock/advance`.
public struct AdvanceClockRequest: Codable, Sendable, Hashable {
    /// A duration: `250ms`, `2s`, `15m`, `1h30m`.
    public var by: String
    /// The move continues a play (a clock advancing in small moves, as the dashboard's *Play* does): the history
    /// keeps it in the previous step when that step is a play's moves too, so a long play is one step.
    public var play: Bool?
    /// A request to advance the clock by `by`.
    public init(by: String, play: Bool? = nil) {
        self.by = by
        self.play = play
    }
}

/// `PUT /v1/sessions/{id}/clock`.
public struct SetClockRequest: Codable, Sendable, Hashable {
    /// The instant the clock should read; earlier than now moves it back.
    public var now: Date
    /// A request to set the clock to `now`.
    public init(now: Date) { self.now = now }
}

/// `GET /v1/sessions/{id}/kv`.
public struct KeyValueListBody: Codable, Sendable, Hashable {
    /// The keys of the session's key-value state, sorted.
    public var keys: [String]
    /// A list of `keys`.
    public init(keys: [String]) { self.keys = keys }
}

/// `GET /v1/sessions/{id}/journal` and `.../journal/unmatched`.
public struct JournalBody: Codable, Sendable, Hashable {
    /// Oldest first.
    public var entries: [NetworkExchange]
    /// Entries dropped to stay within `capacity` since the journal was last cleared.
    public var dropped: Int
    /// The most entries the journal keeps (the daemon's `--journal-capacity`); older ones are dropped first.
    public var capacity: Int

    /// A journal as the daemon reports it.
    public init(entries: [NetworkExchange], dropped: Int, capacity: Int) {
        self.entries = entries
        self.dropped = dropped
        self.capacity = capacity
    }
}

extension JournalBody {
    /// The bytes `JSONEncoder.services` writes for a journal whose entries are `entries`, each already encoded by
    /// it: the keys in its sorted order, nothing between tokens. Written out so a full journal is answered from its
    /// entries' kept JSON rather than encoded again at every read; a test holds it to the encoder's own bytes.
    public static func json(entries: [Data], dropped: Int, capacity: Int) -> Data {
        var json = Data()
        json.reserveCapacity(entries.reduce(64) { $0 + $1.count + 1 })
        json.append(contentsOf: #"{"capacity":\#(capacity),"dropped":\#(dropped),"entries":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(entry)
        }
        json.append(contentsOf: "]}".utf8)
        return json
    }
}

/// `GET /v1/sessions/{id}/journal/counts`: how many requests each route answered since the session started, was
/// reset or its journal was cleared; exact however many entries the journal dropped.
public struct RequestCountsBody: Codable, Sendable, Hashable {
    /// Every route of the session's scenario, by name, with how many requests it answered (0 included).
    public var routes: [String: Int]
    /// Requests that matched no route.
    public var unmatched: Int
    /// Requests no route answered that went to the live network (a `live` or `record` scenario).
    public var live: Int

    /// Counts as the daemon reports them.
    public init(routes: [String: Int], unmatched: Int, live: Int) {
        self.routes = routes
        self.unmatched = unmatched
        self.live = live
    }
}

/// `GET` and `PUT /v1/sessions/{id}/network/conditions`: what the session's network is switched into. A `PUT`
/// replaces all of it; `{}` switches back to the scenario's own network.
public struct NetworkConditionsBody: Codable, Sendable, Hashable {
    /// Every request fails with `offline`.
    public var offline: Bool?
    /// Every request fails with this transport error (`timeout`, `connectionReset`, …).
    public var fault: String?
    /// Added to every answer's delay, on the session's clock (`2s`).
    public var delay: String?

    /// Conditions to set; with no arguments, the scenario's own network.
    public init(offline: Bool? = nil, fault: String? = nil, delay: String? = nil) {
        self.offline = offline
        self.fault = fault
        self.delay = delay
    }
}

/// `GET /v1/sessions/{id}/services`: the services the daemon's team defines, as this session runs them.
public struct ServiceListBody: Codable, Sendable, Hashable {
    /// One service.
    public struct Service: Codable, Sendable, Hashable {
        /// Its scenario section and path segment.
        public var name: String
        /// What it is.
        public var description: String
        /// `fake` (its state can be read and replaced) or `live`.
        public var mode: String

        /// A service as the daemon lists it.
        public init(name: String, description: String, mode: String) {
            self.name = name
            self.description = description
            self.mode = mode
        }
    }

    /// Sorted by name.
    public var services: [Service]
    /// A list of `services`.
    public init(services: [Service]) { self.services = services }
}

/// The data of the `serviceChanged` event: which service changed, and its fake's whole state in the shape
/// `GET /v1/sessions/{id}/services/{name}` answers and `PUT` takes (those two speak the bare state; the name is in
/// their path).
public struct ServiceStateBody: Codable, Sendable, Hashable {
    /// The service's name.
    public var service: String
    /// Its fake's whole state.
    public var state: JSONValue

    /// The data of a `serviceChanged` event for `service`.
    public init(service: String, state: JSONValue) {
        self.service = service
        self.state = state
    }
}

/// The names of the server-sent events of `GET /v1/sessions/{id}/events`; each event's data is JSON.
public enum EventName: String, Codable, Sendable, CaseIterable {
    /// data: the Model's whole state.
    case stateChanged
    /// data: a journal entry (`NetworkExchange`, in the Services product).
    case requestJournaled
    /// data: a ``StreamBody``: a stream delivered a chunk (its `lastChunk`) or ended (its `state`).
    case streamChanged
    /// data: a ``ClockBody``.
    case clockMoved
    /// data: a ``ServiceStateBody``.
    case serviceChanged
    /// data: a ``HistoryChangedBody``: a step was kept, or a rewind or reset replaced the history.
    case historyChanged
    /// data: a ``ModelEscapeBody``: the Model did work the session could not see or order.
    case modelEscaped
    /// data: a ``GapBody``: a reconnecting client missed events no longer retained (the current state follows), or
    /// a reader fell so far behind that its stream dropped events (``GapBody/missed`` says how many).
    case gap
}

/// The data of a `gap` event.
public struct GapBody: Codable, Sendable, Hashable {
    /// The last event id the client said it saw.
    public var lastEventId: Int
    /// The oldest event id still retained, when any is.
    public var oldestRetained: Int?
    /// What was missed and what follows.
    public var message: String
    /// For a reader that fell behind: how many events it missed, all after ``lastEventId``.
    public var missed: Int?
    /// For a reader that fell behind: the id of the newest event it missed.
    public var lastMissed: Int?

    /// The data of a `gap` event.
    public init(lastEventId: Int, oldestRetained: Int?, message: String, missed: Int? = nil, lastMissed: Int? = nil) {
        self.lastEventId = lastEventId
        self.oldestRetained = oldestRetained
        self.message = message
        self.missed = missed
        self.lastMissed = lastMissed
    }
}
