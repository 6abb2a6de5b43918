public import Foundation
public import Services

/// One scenario in `GET /v1/scenarios`: valid or not, with its problems.
public struct ScenarioSummary: Codable, Sendable, Hashable {
    /// The scenario's name, its directory's.
    public var name: String
    /// Its one-line description; absent when its file could not be read that far.
    public var description: String?
    /// The Model it runs; absent when its file could not be read that far.
    public var model: String?
    /// Whether new sessions can be created from it.
    public var valid: Bool
    /// Each problem as `file:line:column: message`; empty when valid. A scenario whose file broke after it
    /// was loaded stays valid (the last good version keeps serving) and lists the new problems here.
    public var problems: [String]
    /// True when the files have problems and sessions start from the version last read without them.
    public var servingLastGood: Bool

    /// A summary as the daemon lists it; ``servingLastGood`` follows from `valid` and `problems`.
    public init(name: String, description: String?, model: String?, valid: Bool, problems: [String]) {
        self.name = name
        self.description = description
        self.model = model
        self.valid = valid
        self.problems = problems
        servingLastGood = valid && !problems.isEmpty
    }
}

/// `GET /v1/scenarios/{name}`: a valid scenario as resolved.
public struct ScenarioDetail: Codable, Sendable, Hashable {
    /// One route of the scenario: what it matches and how it answers.
    public struct RouteSummary: Codable, Sendable, Hashable {
        /// The route's name, unique in the scenario.
        public var name: String
        /// The method it matches; absent when it matches any.
        public var method: String?
        /// The URL it matches: the URL itself, or `~ PATTERN` for a regular expression; absent when it matches any.
        public var url: String?
        /// How many responses or faults it answers with in turn (0 for a live route).
        public var outcomes: Int
        /// True when matching requests go to the live network.
        public var live: Bool?
        /// Each answer in turn (empty for a live route).
        public var answers: [Answer]
        /// After the last answer: `repeat` (the last again) or `cycle` (from the first).
        public var afterLast: String

        /// A route summary; ``outcomes`` is the number of `answers`.
        public init(name: String, method: String?, url: String?, live: Bool? = nil, answers: [Answer], afterLast: String) {
            self.name = name
            self.method = method
            self.url = url
            self.outcomes = answers.count
            self.live = live
            self.answers = answers
            self.afterLast = afterLast
        }
    }

    /// One answer of a route: a status or a fault, after a delay on the session's clock.
    public struct Answer: Codable, Sendable, Hashable {
        /// The response's status, for a response.
        public var status: Int?
        /// The transport error instead of a response (`timeout`, `offline`, …).
        public var fault: String?
        /// How long the session's clock must move before it is delivered (`2s`); absent when at once.
        public var delay: String?
        /// For a causal route: the route (and how many of its answers) after which this answer applies.
        public var after: String?
        /// How it streams: `stream` (a streamed body, server-sent events or chunks) or `webSocket` (a scripted
        /// conversation); absent for an answer sent whole.
        public var streams: String?

        /// An answer with a status or a fault, a delay, a condition and how it streams, each absent when it does not
        /// apply.
        public init(status: Int? = nil, fault: String? = nil, delay: String? = nil, after: String? = nil, streams: String? = nil) {
            self.status = status
            self.fault = fault
            self.delay = delay
            self.after = after
            self.streams = streams
        }

        /// `200`, `503 after 2s`, `fault timeout`, `200 once post-rating answered`, `101 webSocket`.
        public var summary: String {
            var text = status.map(String.init) ?? "fault \(fault ?? "?")"
            if let streams { text += " \(streams)" }
            if let delay { text += " after \(delay)" }
            if let after { text += " once \(after) answered" }
            return text
        }
    }

    /// The scenario's name, its directory's.
    public var name: String
    /// Its one-line description.
    public var description: String
    /// The Model it runs.
    public var model: String
    /// The directory it was read from, as the daemon sees it.
    public var directory: String
    /// Scenarios it extends, nearest first.
    public var extends: [String]
    /// The instant its clock starts at.
    public var clockStart: Date
    /// `frozen` (moves only when told), `running` (ticks from the start) or `system` (the system's clock).
    public var clockMode: String
    /// The IANA time zone people read the clock in (`Europe/London`), when the scenario names one.
    public var clockTimeZone: String?
    /// The keys its key-value seed fills, sorted.
    public var seedKeys: [String]
    /// Its network routes, in matching order (the first that matches answers).
    public var routes: [RouteSummary]
    /// The transport error a request that matches no route gets (`connectionRefused` unless the scenario says).
    public var unmatched: String
    /// `fake`, `live` or `record`.
    public var network: String
    /// `memory` or `durable`.
    public var keyValueStore: String
    /// `seed N` or `system`.
    public var random: String
    /// The services the daemon's team defines, each `fake` or `live` in this scenario.
    public var services: [String: String]
    /// How live requests reach servers, for a scenario that sends any (a live route, or mode `live` or `record`).
    public var live: LiveSettings?
    /// Which scenario wrote each setting, by its JSON pointer in a scenario file (`/clock`, `/keyValue/seed/items`,
    /// a route by name as `/network/routes/create-item`, a service's value as `/notifications/permission`): the one
    /// that set it, then any that changed it (a route's `extends`). A setting not listed is the default, or a
    /// service's initial state.
    public var sources: [String: [String]]?
    /// Each team service's fake state as resolved: its sections merged over the parents' and the initial state.
    public var serviceStates: [String: JSONValue]?

    /// How a scenario's live requests reach servers.
    public struct LiveSettings: Codable, Sendable, Hashable {
        /// `10s`: how long a connection may take.
        public var connectTimeout: String
        /// `30s`: how long a server may stay silent.
        public var readTimeout: String
        /// How many redirects are followed.
        public var redirects: Int
        /// Origins sent to other origins.
        public var forward: [String: String]

        /// Live settings as the scenario resolves them.
        public init(connectTimeout: String, readTimeout: String, redirects: Int, forward: [String: String]) {
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.redirects = redirects
            self.forward = forward
        }
    }

    /// A scenario's detail as the daemon reports it.
    public init(name: String, description: String, model: String, directory: String, extends: [String], clockStart: Date,
                clockMode: String, seedKeys: [String], routes: [RouteSummary], unmatched: String, network: String,
                keyValueStore: String, random: String, services: [String: String], live: LiveSettings?, clockTimeZone: String? = nil,
                sources: [String: [String]]? = nil, serviceStates: [String: JSONValue]? = nil) {
        self.live = live
        self.sources = sources
        self.serviceStates = serviceStates
        self.clockTimeZone = clockTimeZone
        self.random = random
        self.services = services
        self.network = network
        self.keyValueStore = keyValueStore
        self.name = name
        self.description = description
        self.model = model
        self.directory = directory
        self.extends = extends
        self.clockStart = clockStart
        self.clockMode = clockMode
        self.seedKeys = seedKeys
        self.routes = routes
        self.unmatched = unmatched
    }
}

/// `POST /v1/scenarios/reload`: what the re-read found.
public struct ReloadBody: Codable, Sendable, Hashable {
    /// Scenarios that loaded as their files are now, without problems.
    public var scenarios: Int
    /// Scenarios with problems and no earlier version to serve: no session can start from them.
    public var invalid: [String]
    /// Scenarios with problems that keep serving the version last read without them.
    public var servingLastGood: [String]

    /// What a reload found.
    public init(scenarios: Int, invalid: [String], servingLastGood: [String]) {
        self.scenarios = scenarios
        self.invalid = invalid
        self.servingLastGood = servingLastGood
    }

    /// True when every scenario loaded without problems.
    public var isClean: Bool { invalid.isEmpty && servingLastGood.isEmpty }
}

/// `POST /v1/sessions/{session}/recording`: save what a recording session sent and got as a new scenario.
public struct SaveRecordingRequest: Codable, Sendable, Hashable {
    /// The new scenario's name.
    public var name: String
    /// Keep `Authorization`, `Cookie` and `Set-Cookie` values (left out by default).
    public var keepSecrets: Bool?

    /// A request to save the recording as scenario `name`.
    public init(name: String, keepSecrets: Bool? = nil) {
        self.name = name
        self.keepSecrets = keepSecrets
    }
}

/// What saving a recording wrote.
public struct SavedRecordingBody: Codable, Sendable, Hashable {
    /// The new scenario's name; sessions can be created from it at once.
    public var scenario: String
    /// The directory written.
    public var directory: String
    /// Routes in its `scenario.yaml`.
    public var routes: Int
    /// Files written: `scenario.yaml` and the fixtures.
    public var files: Int

    /// What saving a recording wrote.
    public init(scenario: String, directory: String, routes: Int, files: Int) {
        self.scenario = scenario
        self.directory = directory
        self.routes = routes
        self.files = files
    }
}

/// `POST /v1/sessions/{id}/save`.
public struct SaveSessionRequest: Codable, Sendable, Hashable {
    /// The new scenario's name.
    public var name: String
    /// Its description; by default one saying which session of which scenario it came from, and when.
    public var description: String?

    /// A request to save the session as scenario `name`.
    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

/// What saving a session wrote.
public struct SavedSessionBody: Codable, Sendable, Hashable {
    /// The new scenario's name; sessions can be created from it at once.
    public var scenario: String
    /// The directory written.
    public var directory: String
    /// The scenario it extends: the session's.
    public var extends: String

    /// What saving a session wrote.
    public init(scenario: String, directory: String, extends: String) {
        self.scenario = scenario
        self.directory = directory
        self.extends = extends
    }
}

/// `GET /v1/scenarios/{scenario}/file`: a scenario's file as it is on disk, valid or not.
public struct ScenarioFileBody: Codable, Sendable, Hashable {
    /// The scenario's name.
    public var scenario: String
    /// The file's path, as the daemon reads it.
    public var path: String
    /// The file's text.
    public var text: String

    /// Creates the body.
    public init(scenario: String, path: String, text: String) {
        self.scenario = scenario
        self.path = path
        self.text = text
    }
}
