import ControlAPI
import Fakes
import Foundation
public import Logging
public import ScenarioFormat
public import Services
import SessionRuntime

/// One running instance of a scenario: its own Model, clock, key-value store and journal, isolated from every
/// other session. Operations that change anything take turns, in arrival order, and return once the Model has
/// settled (every task finished or waiting on the clock), so what they return is deterministic.
public actor Session {
    /// The session's id, unique in its host.
    public nonisolated let id: String
    /// The scenario it runs, as it was when the session was created (with its overrides applied).
    public nonisolated let scenario: Scenario
    /// The scenario sections given for this session only, as the client wrote them (``ScenarioOverrides``).
    public nonisolated let overrides: JSONValue?

    /// Where the session's Model work runs (DESIGN §4): one job at a time, counted, so the session knows exactly
    /// when its Model has settled. The session's own operations run where they are called, as a default actor's do,
    /// so that a client's request costs no hop onto it.
    nonisolated let executor: SessionExecutor
    /// Carries `scenario`, `session` and `model` metadata, which become journal fields.
    public nonisolated let logger: Logger
    private let makeDriver: @Sendable (ModelServices) async -> ModelDriver
    let serviceDefinitions: [ServiceDefinition]
    private let durableStores: DurableStores
    private let settledStates: SettledStates
    let events: EventBroadcaster
    var runtime: SessionGeneration?
    /// The journal, what the step under way caused, and the generation both belong to (see ``SessionJournal``).
    nonisolated let journaling: SessionJournal
    /// The journal now.
    var journal: RequestJournal { journaling.journal }
    /// The state versions of the team services' fakes last published, by name.
    var publishedServiceVersions: [String: Int] = [:]
    /// The state last published; nil while no one watches, so that starting a session encodes no state.
    var lastState: ModelState?
    /// The state while the Model is settled, so that reading it again encodes nothing (the control API's most
    /// frequent request; encoding was a third of its CPU). Dropped whenever Model code may run: when an operation
    /// takes its turn; replaced when a running clock's tick has settled.
    var settledState: ModelState?
    /// Counts the changes to `settledState`, so a read that overlapped one does not cache what it read.
    var settledStateVersion = 0
    /// Set once the host deletes the session; its state is then no longer published under its id.
    private(set) var isClosing = false
    // An actor is reentrant at every `await`; two actions interleaving there would make results depend on
    // scheduling, so changing operations wait for their turn here.
    var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// What clients did, for ``history()`` and ``rewind(to:)``.
    var changes: SessionHistory
    /// What the session's stores hold, in bytes, counted into the host's.
    nonisolated let held: SessionBytes
    /// The host's limits, the byte bounds of this session's stores among them.
    nonisolated let limits: HostLimits
    /// The route changes made since the current generation started (`set route X`, `remove route Y`), which a
    /// scenario saved from the session would not keep.
    var routeChanges: [String] = []
    /// Requests sent from outside whose answers are still to come, and those kept for reading later
    /// (Session+OutsideRequests.swift).
    var outsideRequests = OutsideRequests(limit: Session.keptOutsideRequestLimit, byteLimit: Session.keptOutsideRequestBytes)
    /// The WebSockets outside clients opened, while open (Session+OutsideSockets.swift).
    nonisolated let outsideSockets = OutsideSockets()
    /// What closes with the session (Session+Attachments.swift).
    var attachments: [any SessionAttachment] = []
    /// Work of the Model the session could not see or order, oldest first (``escapeLimit`` at most).
    var escapes: [ModelEscape] = []
    /// Whether an escape fails the step that made it.
    let escapePolicy: EscapePolicy
    /// Routes set by name, resolved once for every session of the host.
    let resolvedRoutes: ResolvedRoutes
    /// The catalog's version this session's scenario came from.
    let catalogGeneration: Int

    init(id: String, scenario: Scenario, overrides: JSONValue? = nil, journalCapacity: Int, limits: HostLimits, held: SessionBytes,
         makeDriver: @escaping @Sendable (ModelServices) async -> ModelDriver,
         services: [ServiceDefinition], durableStores: DurableStores, settledStates: SettledStates, events: EventBroadcaster,
         escapePolicy: EscapePolicy = .warn, resolvedRoutes: ResolvedRoutes = ResolvedRoutes(), logger: Logger) {
        self.limits = limits
        self.held = held
        self.changes = SessionHistory(byteLimit: limits.historyBytes)
        self.escapePolicy = escapePolicy
        self.resolvedRoutes = resolvedRoutes
        self.catalogGeneration = resolvedRoutes.generation
        self.executor = SessionExecutor(label: "scenariod.session.\(id)")
        self.events = events
        self.serviceDefinitions = services
        self.settledStates = settledStates
        self.durableStores = durableStores
        self.id = id
        self.scenario = scenario
        self.overrides = overrides
        var logger = logger
        logger[metadataKey: "scenario"] = "\(scenario.name)"
        logger[metadataKey: "session"] = "\(id)"
        logger[metadataKey: "model"] = "\(scenario.model)"
        self.logger = logger
        self.makeDriver = makeDriver
        self.journaling = SessionJournal(capacity: journalCapacity, byteCapacity: limits.journalBytes, held: held)
    }

    // MARK: Life cycle

    /// Builds the first generation; the host calls this once.
    func start() async throws(HostError) {
        await takeTurn()
        defer { endTurn() }
        try await startRuntime()
        let escaped = reportEscapes(during: "run")
        await remember(.start, tell: false)
        try failOnEscapes(escaped, during: "run")
    }

    /// Back to the scenario's start: seed (a durable store too), clock, response sequences, empty journal and
    /// recording.
    public func reset() async throws(HostError) {
        await takeTurn()
        defer { endTurn() }
        try await restart()
        events.publish(.clockMoved(now: try live().clock.now()))
        let escaped = reportEscapes(during: "run, after the reset")
        await remember(.reset)
        logger.info("session reset to the scenario's start")
        try failOnEscapes(escaped, during: "run, after the reset")
    }

    /// A new generation from the scenario's start, with an empty journal.
    func restart() async throws(HostError) {
        // What the replaced runtime still reports, such as a delayed answer cancelled as it stops, lands in no
        // later journal or step.
        journaling.startGeneration()
        outsideRequests.cancelAll()
        held.set(.sent, to: 0)
        outsideSockets.removeAll()
        try await live().stop()
        runtime = nil
        try await startRuntime(resetStore: true)
    }

    /// Stops the Model and ends every event stream. Work in flight (an action waiting on the live network) is
    /// cancelled first, so closing never waits for a slow server.
    func close() async {
        // The host has forgotten this session, so its id may name a new one already: stop speaking for it.
        isClosing = true
        settledStates.set(nil, for: id)
        // First, so no client reaches the session through them while it stops.
        await closeAttachments()
        let current = runtime
        await current?.stop()
        await takeTurn()
        defer { endTurn() }
        // A reset that held the turn meanwhile built a new generation: stop that one too.
        if let runtime, runtime.clock !== current?.clock { await runtime.stop() }
        outsideRequests.cancelAll()
        outsideSockets.removeAll()
        runtime = nil
        events.finish()
    }

    private func startRuntime(resetStore: Bool = false) async throws(HostError) {
        let generation = journaling.generation
        let inputs = SessionGeneration.Inputs(
            makeDriver: makeDriver, services: serviceDefinitions,
            // Journaled where the Model's work runs, with no hop onto this actor.
            journal: { [weak self] exchange in self?.record(exchange, of: generation) },
            durableStores: durableStores, logger: logger, executor: executor, held: held, recordingBytes: limits.recordingBytes)
        let runtime = try await SessionGeneration.start(scenario, inputs, resetStore: resetStore)
        self.runtime = runtime
        // After a reset, every fake's state is told again (its version counts from 0 in the new generation).
        publishedServiceVersions = resetStore ? Dictionary(uniqueKeysWithValues: serviceDefinitions.map { ($0.name, -1) }) : [:]
        runtime.clock.onTick { [weak self] in await self?.ticked() }
        if events.hasSubscribers {
            _ = try? await publishStateIfChanged()
        } else {
            lastState = nil
        }
    }

    /// The current generation; missing only once the session was deleted (a client may still hold it).
    func live() throws(HostError) -> SessionGeneration {
        guard let runtime else { throw HostError(.unknownSession, "session '\(id)' was deleted.") }
        return runtime
    }

    /// A running clock woke what was due and the Model settled.
    private func ticked() async {
        _ = try? await publishStateIfChanged()
        // No step to fail: the clock moved on its own, or a live server's message came.
        _ = reportEscapes(during: "a tick of the running clock or a live message")
    }

    /// Refuses `work`, which may make the session hold more, while the host's sessions hold their bound of bytes
    /// (``HostLimits/heldBytes``).
    /// - Throws: ``HostError`` `.tooMuchHeld`, naming the sessions that hold most.
    func admit(_ work: String) throws(HostError) {
        try held.host.admit("\(work) in session '\(id)'", limit: limits.heldBytes)
    }

    /// Waits for the session's turn and takes it.
    /// - Returns: The settled state as the turn began (nil when it was not known): an operation that gives the Model
    ///   nothing to do leaves the state as it was.
    @discardableResult
    func takeTurn() async -> ModelState? {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        let known = settledState
        setSettledState(nil)
        return known
    }

    func setSettledState(_ state: ModelState?) {
        settledState = state
        settledStateVersion += 1
        if !isClosing { settledStates.set(state, for: id) }
    }

    func endTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
