import ControlAPI
import Fakes
public import Foundation
public import Logging
public import ScenarioFormat
public import Services
import SessionRuntime

/// The engine: scenarios by name, and the sessions running them. It knows nothing of sockets; everything a
/// client can do over the control API, a Swift program can do here in-process.
public actor SessionHost {
    /// The Models scenarios may name.
    public nonisolated let models: ModelRegistry
    /// The scenarios new sessions are created from.
    public private(set) var catalog: ScenarioCatalog
    /// The journal bound for new sessions.
    public nonisolated let journalCapacity: Int
    /// Where recorded scenarios are saved; nil when the daemon has no state directory.
    public nonisolated let recordingsDirectory: URL?
    /// How many sessions and event streams clients may hold open.
    public nonisolated let limits: HostLimits
    /// Whether a Model's escape from its session fails the step (tests) or is only reported (demos).
    public nonisolated let escapePolicy: EscapePolicy
    /// The states of settled sessions, for reading without a hop onto any actor.
    public nonisolated let settledStates = SettledStates()
    /// Every open session's journal, for reading without a hop onto any actor.
    public nonisolated let journals = SessionJournals()
    private let logger: Logger
    private let durableStores: DurableStores
    private let subscribers: SubscriberCount
    private let bytes = HostBytes()

    /// What every session's stores hold now, in bytes, by store.
    public nonisolated var heldBytes: HeldBytes { bytes.now }

    /// The event streams open across every session now.
    public nonisolated var eventStreamsOpen: Int { subscribers.count }
    /// The events dropped for event-stream readers that fell behind, since the host started.
    public nonisolated var eventsDropped: Int { subscribers.droppedEvents }

    /// The figures of the memos the engine shares among sessions (decoded actions and encoded states per Model,
    /// resolved routes): what the benchmarks read to tell whether each pays.
    package nonisolated var memoFigures: [MemoFigures] { models.memoFigures + [resolvedRoutes.memo.figures] }

    private var sessions: [String: Session] = [:]
    private var generatedCount = 0
    /// Whether this process's task ownership was found complete (asked under `--model-escapes fail` only).
    private var ownershipChecked = false
    /// Each scenario resolved with a schedule seed of 0 as its only override, kept until the next reload: explore
    /// opens every walk's session with such an override, a seed of the walk's own, and resolving overrides reads
    /// them as a scenario file (a tenth of an exploration's time, profiled). The seed's value changes nothing else.
    private var seedOverridden: [String: Scenario] = [:]
    /// Routes sessions set by name, resolved once for all of them.
    private let resolvedRoutes = ResolvedRoutes()

    /// Creates a host.
    /// - Parameters:
    ///   - catalog: Scenarios, typically ``ScenarioCatalog/load(from:models:services:)`` with `models.names` and `models.services`.
    ///   - models: The Models scenarios may name.
    ///   - journalCapacity: How many requests each session's journal keeps.
    ///   - stateDirectory: Where durable stores (`stores/`) and recorded scenarios (`scenarios/`) live; nil for none.
    ///   - limits: How many sessions and event streams clients may hold open.
    ///   - escapePolicy: Whether a Model's escape from its session fails the step or is only reported.
    ///   - logger: Where sessions log actions, requests and clock moves (with `scenario`, `session`, `model` metadata).
    public init(catalog: ScenarioCatalog, models: ModelRegistry, journalCapacity: Int = RequestJournal.defaultCapacity,
                stateDirectory: URL? = nil, limits: HostLimits = .default, escapePolicy: EscapePolicy = .warn,
                logger: Logger = Logger(label: "scenariod.host", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.limits = limits
        self.escapePolicy = escapePolicy
        self.subscribers = SubscriberCount(limit: limits.subscribers)
        self.catalog = catalog
        self.durableStores = DurableStores(stateDirectory: stateDirectory)
        self.recordingsDirectory = stateDirectory.map(Self.recordings(in:))
        self.models = models
        self.journalCapacity = journalCapacity
        self.logger = logger
    }

    /// Re-reads `directories` and makes the result the scenarios new sessions are created from, all at once.
    /// A scenario that became invalid keeps its last good version and lists its problems; running sessions keep
    /// the version they started with.
    /// - Returns: the catalog now in force.
    @discardableResult
    public func reload(from directories: [URL]) -> ScenarioCatalog {
        catalog = ScenarioCatalog.load(from: directories, models: models.names, services: models.services).keepingValidScenarios(from: catalog)
        seedOverridden = [:]
        resolvedRoutes.startGeneration()
        return catalog
    }

    /// Where a state directory keeps recorded scenarios; the daemon reads it as its last scenarios directory.
    public static func recordings(in stateDirectory: URL) -> URL {
        stateDirectory.appendingPathComponent("scenarios")
    }

    /// A valid scenario by name.
    /// - Throws: ``HostError`` `.unknownScenario`, or `.invalidScenario` listing its problems.
    public func scenario(named name: String) throws(HostError) -> Scenario {
        if let scenario = catalog.scenarios[name] { return scenario }
        if let problems = catalog.problems[name] {
            throw HostError(.invalidScenario, "scenario '\(name)' has problems:\n" + problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        let known = catalog.names
        throw HostError(.unknownScenario, "there is no scenario '\(name)'.\(Suggestion.didYouMean(name, among: known)) Known scenarios: \(known.joined(separator: ", ")).")
    }

    /// A valid scenario by name with a session's `overrides` applied, as a session of it with them would run it.
    /// - Throws: ``HostError`` `.unknownScenario`, `.invalidScenario` or `.invalidOverrides`, each listing its problems.
    public func scenario(named name: String, overrides: JSONValue?) throws(HostError) -> Scenario {
        let scenario = try scenario(named: name)
        guard let overrides else { return scenario }
        return try resolve(overrides, over: scenario)
    }

    // MARK: Sessions

    /// Starts a session of `scenarioName`.
    /// - Parameters:
    ///   - scenarioName: The scenario to run.
    ///   - id: A client-chosen id (letters, digits, `.`, `_`, `-`; at most 64), or nil for `<scenario>-<n>`.
    ///   - overrides: Scenario sections for this session only (``ScenarioOverrides``); a reset returns to them.
    /// - Returns: the session, settled in its scenario's start state.
    /// - Throws: ``HostError`` naming what is wrong; `.tooManySessions` when ``HostLimits/sessions`` are open.
    @discardableResult
    public func createSession(of scenarioName: String, id: String? = nil, overrides: JSONValue? = nil) async throws(HostError) -> Session {
        guard sessions.count < limits.sessions else {
            throw HostError(.tooManySessions, "\(sessions.count) sessions are open, the limit; delete sessions that are done (DELETE /v1/sessions/ID, scenarioctl session rm ID) or raise the daemon's --max-sessions.")
        }
        try bytes.admit("open a session of '\(scenarioName)'", limit: limits.heldBytes)
        let scenario = try scenario(named: scenarioName, overrides: overrides)
        // An engine in a test's process is checked here, as a daemon is at its start (a test must not pass on a run
        // its session did not own).
        if escapePolicy == .fail, !ownershipChecked {
            let ownership = await Self.checkTaskOwnership()
            guard ownership.isComplete else { throw HostError(.modelEscaped, "this binary cannot own its Models' tasks: task ownership is \(ownership.summary)") }
            // The process's answer does not change: a session's creation need not ask again.
            ownershipChecked = true
        }
        guard let makeDriver = models.factory(for: scenario.model) else {
            throw HostError(.invalidScenario, "scenario '\(scenarioName)' names the model '\(scenario.model)', which this host does not run.")
        }
        let sessionID: String
        if let id {
            try SafeName.validate(id)
            guard sessions[id] == nil else {
                throw HostError(.sessionExists, "a session '\(id)' already exists; pick another id or delete it first.")
            }
            sessionID = id
        } else {
            repeat {
                generatedCount += 1
            } while sessions["\(scenarioName)-\(generatedCount)"] != nil
            sessionID = "\(scenarioName)-\(generatedCount)"
        }
        let held = bytes.count(session: sessionID)
        let session = Session(id: sessionID, scenario: scenario, overrides: overrides, journalCapacity: journalCapacity,
                              limits: limits, held: held, makeDriver: makeDriver,
                              services: models.services, durableStores: durableStores, settledStates: settledStates,
                              events: EventBroadcaster(limit: limits.subscribersPerSession, allStreams: subscribers,
                                                       byteLimit: limits.eventBufferBytes, held: held),
                              escapePolicy: escapePolicy, resolvedRoutes: resolvedRoutes, logger: logger)
        // Registered before it starts, so a concurrent create with the same id is refused.
        sessions[sessionID] = session
        journals.set(session.journaling, for: sessionID)
        do {
            try await session.start()
        } catch {
            sessions[sessionID] = nil
            journals.set(nil, for: sessionID)
            await session.close()
            bytes.forget(session.held)
            throw error
        }
        session.logger.info("session created")
        return session
    }

    /// `scenario` with a session's `overrides` applied.
    private func resolve(_ overrides: JSONValue, over scenario: Scenario) throws(HostError) -> Scenario {
        func apply(_ overrides: JSONValue) throws(HostError) -> Scenario {
            do {
                return try ScenarioOverrides.apply(overrides, to: scenario, models: models.names, services: models.services)
            } catch {
                throw HostError(.invalidOverrides, "the overrides of scenario '\(scenario.name)' have problems: \(error). They are read as the sections of a scenario file that extends it.")
            }
        }
        guard case .int(let seed) = overrides.value(at: "/schedule/seed"), seed >= 0,
              overrides == ["schedule": ["seed": .int(seed)]] else { return try apply(overrides) }
        var resolved: Scenario
        if let known = seedOverridden[scenario.name] { resolved = known } else {
            resolved = try apply(["schedule": ["seed": 0]])
            seedOverridden[scenario.name] = resolved
        }
        resolved.scheduleSeed = UInt64(seed)
        return resolved
    }

    /// The session with `id`.
    /// - Throws: ``HostError`` `.unknownSession`.
    public func session(_ id: String) throws(HostError) -> Session {
        guard let session = sessions[id] else {
            let defaultHint = id == "default" ? " (a daemon has a session 'default' only when started with --scenario NAME)" : ""
            throw HostError(.unknownSession, "there is no session '\(id)'\(defaultHint). `scenarioctl session ls` (GET /v1/sessions) lists the open ones; `scenarioctl session new SCENARIO` starts one.")
        }
        return session
    }

    /// Every open session, sorted by id.
    public func openSessions() -> [Session] {
        sessions.keys.sorted().compactMap { sessions[$0] }
    }

    /// Stops and forgets the session with `id`.
    /// - Throws: ``HostError`` `.unknownSession`.
    public func deleteSession(_ id: String) async throws(HostError) {
        let session = try session(id)
        sessions[id] = nil
        journals.set(nil, for: id)
        await session.close()
        bytes.forget(session.held)
        session.logger.info("session deleted")
    }

    /// Stops every session and closes the durable stores.
    public func closeAll() async {
        let all = sessions.values
        sessions.removeAll()
        for session in all {
            journals.set(nil, for: session.id)
            await session.close()
            bytes.forget(session.held)
        }
        await durableStores.closeAll()
    }

    // MARK: Saving

    /// Saves session `id` as a new scenario `name` in ``recordingsDirectory`` that starts where the session stands
    /// (see ``SavedScenario``). The caller reloads the catalog to make it available.
    /// - Returns: the new scenario's directory.
    public func saveSession(_ id: String, as name: String, description: String?) async throws(HostError) -> URL {
        let session = try session(id)
        let root = try savingDirectory(name, what: "sessions")
        if let reason = await session.notSavableBecause {
            throw HostError(.notSavable, "session '\(id)' cannot be saved as a scenario that starts where it stands: \(reason).")
        }
        let (keyValues, now) = try await session.snapshot()
        let saved = SavedScenario(name: name, source: session.scenario, session: id, now: now, keyValues: keyValues,
                                  description: description)
        let directory = try write(name, into: root) { try saved.write(into: root) }
        session.logger.notice("session saved as scenario '\(name)' in \(directory.path), starting at \(InstantText.format(now)) with \(keyValues.count) key-value entries")
        return directory
    }

    /// The directory scenarios are saved in, once `name` is known to be a new, safe scenario name.
    private func savingDirectory(_ name: String, what: String) throws(HostError) -> URL {
        guard let root = recordingsDirectory else {
            throw HostError(.saveFailed, "scenariod has no state directory to save \(what) in; start it with --state-directory DIR.")
        }
        try SafeName.validate(name, what: "scenario name", code: .invalidScenarioName)
        guard !catalog.names.contains(name) else {
            throw HostError(.scenarioExists, "a scenario '\(name)' exists already; pick another name.")
        }
        return root
    }

    /// Runs `write`, saying what went wrong as a ``HostError``.
    private func write(_ name: String, into root: URL, _ write: () throws -> URL) throws(HostError) -> URL {
        do {
            return try write()
        } catch CocoaError.fileWriteFileExists {
            throw HostError(.scenarioExists, "\(root.appendingPathComponent(name).path) exists already; pick another name or remove it.")
        } catch {
            throw HostError(.saveFailed, "cannot write scenario '\(name)' into \(root.path): \(error.localizedDescription)")
        }
    }

    // MARK: Recordings

    /// Saves what the `record` session `id` recorded as a new scenario `name` in ``recordingsDirectory``.
    /// The caller reloads the catalog to make it available.
    /// - Parameter keepSecrets: Keep `Authorization`, `Cookie` and `Set-Cookie` values instead of leaving them out.
    /// - Returns: the new scenario's directory and its number of routes and files.
    public func saveRecording(of id: String, as name: String, keepSecrets: Bool) async throws(HostError)
        -> (directory: URL, routes: Int, files: Int) {
        let session = try session(id)
        let root = try savingDirectory(name, what: "recordings")
        let (exchanges, startedAt) = try await session.recording()
        let recorded = RecordedScenario(name: name, source: session.scenario, session: id, exchanges: exchanges,
                                        startedAt: startedAt, keepSecrets: keepSecrets)
        let directory = try write(name, into: root) { try recorded.write(into: root) }
        session.logger.notice("recording saved as scenario '\(name)' in \(directory.path): \(recorded.routeCount) routes from \(exchanges.count) requests")
        return (directory, recorded.routeCount, recorded.files.count)
    }
}
