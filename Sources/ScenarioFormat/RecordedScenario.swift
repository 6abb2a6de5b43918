import Fakes
public import Foundation
import HTTPTypes
import Services
import Yams

/// A recording turned into a scenario directory: `scenario.yaml` with one route per distinct request and the
/// response bodies as fixture files.
///
/// Identical requests (method, URL, query, JSON body) that got different answers become one route with several
/// `responses`. A read (GET, HEAD) whose answer changed after a write (a POST, PUT, PATCH, DELETE) answers by cause:
/// each later response says `after: WRITE-ROUTE` (or `{route:, times:}`), so a replay gets the before-answer however
/// often it reads before the write, and the after-answer once the write has happened. Other routes answer in
/// recorded order. Unless `keepSecrets` is set, credentials are left out:
/// `Authorization`, `Cookie` and `Set-Cookie` values; in JSON bodies, the fields that are always secrets
/// (``/Services/JSONValue/secretFieldNames``) and the scenario's `network.redact` pointers — a request matcher leaves
/// them out (it matches any value there) and a response fixture holds `<redacted>` instead; and in form bodies and
/// query strings, the same field names.
public struct RecordedScenario: Sendable {
    /// The header fields whose values are secrets.
    public static let secretHeaders: Set<String> = ["authorization", "cookie", "set-cookie"]
    /// What a redacted value reads.
    public static let redacted = "<redacted>"
    /// Response fields that describe one connection, not the resource; replay would send them wrongly.
    static let connectionHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "date", "upgrade", "te", "trailer",
        "proxy-authenticate", "proxy-connection",
    ]

    /// The new scenario's name (its directory name).
    public var name: String
    /// The files to write, by path relative to the scenario directory: `scenario.yaml` and `fixtures/…`.
    public internal(set) var files: [String: Data] = [:]
    /// How many routes the scenario has.
    public private(set) var routeCount = 0
    /// The JSON pointers left out besides the secret fields; nil when secrets are kept.
    private(set) var redact: [String]?

    /// Where the exchanges came from, as the new scenario says it: its description, Model, clock, seed and header.
    public struct Origin: Sendable {
        /// The scenario's `description`.
        public var description: String
        /// The Model the scenario runs (`model:`).
        public var model: String
        /// The replay's clock; a recording on the system clock replays frozen where it started.
        public var clock: ClockSettings
        /// The key-value seed to keep, by key, as JSON (or text) bytes.
        public var seed: [String: Data]
        /// JSON pointers whose values are secrets besides the fields that always are (`network.redact`).
        public var redact: [String]
        /// The comment the file opens with (one line, without `#`), saying who wrote it from what.
        public var header: String

        /// An origin with these parts.
        public init(description: String, model: String, clock: ClockSettings, seed: [String: Data] = [:],
                    redact: [String] = [], header: String) {
            self.description = description
            self.model = model
            self.clock = clock
            self.seed = seed
            self.redact = redact
            self.header = header
        }
    }

    /// Builds the scenario from a recording session.
    /// - Parameters:
    ///   - name: The new scenario's name.
    ///   - source: The scenario the recording session ran (its Model, clock and seed are kept).
    ///   - session: The recording session's id, for the description.
    ///   - exchanges: What the session recorded, in any order; they are sorted by arrival.
    ///   - startedAt: When the session started, on its clock: a recording on the system clock replays frozen there.
    ///   - keepSecrets: Keep `Authorization`, `Cookie` and `Set-Cookie` values (and match on the first two).
    public init(name: String, source: Scenario, session: String, exchanges: [RecordedExchange], startedAt: Date,
                keepSecrets: Bool = false) {
        let requests = exchanges.count
        var clock = source.clock
        if clock.mode == .system {
            clock.start = startedAt
            clock.mode = .frozen
        }
        let origin = Origin(
            description: "Recorded from session '\(session)' of '\(source.name)': \(requests) request\(requests == 1 ? "" : "s") from \(InstantText.format(startedAt)).",
            model: source.model, clock: clock, seed: source.seed, redact: source.network.redact,
            header: "Recorded by scenariod on \(InstantText.format(Date())); replays without a network.")
        self.init(name: name, origin: origin, exchanges: exchanges, keepSecrets: keepSecrets)
    }

    /// Builds the scenario from exchanges that came from elsewhere (an imported HAR file).
    /// - Parameters:
    ///   - name: The new scenario's name.
    ///   - origin: What the scenario says of itself, and its Model, clock and seed.
    ///   - exchanges: The requests and their answers, in any order; they are sorted by `sequence`.
    ///   - keepSecrets: Keep `Authorization`, `Cookie` and `Set-Cookie` values (and match on the first two).
    public init(name: String, origin: Origin, exchanges: [RecordedExchange], keepSecrets: Bool = false) {
        self.name = name
        let ordered = exchanges.sorted { $0.sequence < $1.sequence }
        var routes: [RouteDraft] = []
        var index: [RouteDraft.Key: Int] = [:]
        let redact = keepSecrets ? nil : origin.redact
        self.redact = redact
        for exchange in ordered {
            let key = RouteDraft.Key(exchange.request, redact: redact)
            if let existing = index[key] {
                routes[existing].answers.append(answer(exchange, redact: redact))
            } else {
                index[key] = routes.count
                routes.append(RouteDraft(key: key, firstSequence: exchange.sequence, answers: [answer(exchange, redact: redact)]))
            }
        }
        // A route matches requests with more query items or body keys too, so the more specific routes of one
        // method and URL go first; otherwise recorded order.
        let firstOfURL = Dictionary(routes.map { ("\($0.key.method) \($0.key.url)", $0.firstSequence) }) { min($0, $1) }
        routes.sort {
            let left = (firstOfURL["\($0.key.method) \($0.key.url)"]!, -$0.key.query.count, -$0.key.bodyText.count, $0.firstSequence)
            let right = (firstOfURL["\($1.key.method) \($1.key.url)"]!, -$1.key.query.count, -$1.key.bodyText.count, $1.firstSequence)
            return left < right
        }
        routeCount = routes.count
        var usedNames = UniqueNames()
        var names: [RouteDraft.Key: String] = [:]
        for route in routes { names[route.key] = uniqueName(route.key, used: &usedNames) }
        let recorded = ordered.map { (sequence: $0.sequence, key: RouteDraft.Key($0.request, redact: redact)) }
        let routeNodes = routes.map { route -> Node in
            routeNode(route, name: names[route.key]!, causes: Self.causes(of: route, in: recorded, names: names))
        }
        files["scenario.yaml"] = scenarioYAML(origin: origin, keepSecrets: keepSecrets, routes: routeNodes)
    }

    /// Writes the scenario as `root/NAME`, all at once: into a hidden directory first, renamed when complete, so a
    /// reload never sees half a scenario.
    /// - Returns: the new scenario directory.
    /// - Throws: `CocoaError(.fileWriteFileExists)` when `root/NAME` exists; file system errors otherwise.
    public func write(into root: URL) throws -> URL {
        try ScenarioDirectoryWriter.write(files, as: name, into: root)
    }
}
