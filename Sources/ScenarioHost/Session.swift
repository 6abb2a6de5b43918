public import Fakes
public import Foundation
import Logging
public import ScenarioFormat
public import Services

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

    /// Carries `scenario`, `session` and `model` metadata, which become journal fields.
    nonisolated let logger: Logger
    private let makeDriver: @Sendable (Services) async -> ModelDriver
    private let serviceDefinitions: [ServiceDefinition]
    private let durableStores: DurableStores
    private let settledStates: SettledStates
    private let events: EventBroadcaster
    private var runtime: SessionRuntime?
    private var journal: RequestJournal
    /// The state versions of the team services' fakes last published, by name.
    private var publishedServiceVersions: [String: Int] = [:]
    /// The state last published; nil while no one watches, so that starting a session encodes no state.
    private var lastState: ModelState?
    /// The state while the Model is settled, so that reading it again encodes nothing (the control API's most
    /// frequent request; encoding was a third of its CPU). Dropped whenever Model code may run: when an operation
    /// takes its turn; replaced when a running clock's tick has settled.
    private var settledState: ModelState?
    /// Counts the changes to `settledState`, so a read that overlapped one does not cache what it read.
    private var settledStateVersion = 0
    /// Set once the host deletes the session; its state is then no longer published under its id.
    private var isClosing = false
    // An actor is reentrant at every `await`; two actions interleaving there would make results depend on
    // scheduling, so changing operations wait for their turn here.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// What clients did, for ``history()`` and ``rewind(to:)``.
    private var changes = SessionHistory()
    /// The journal sequence numbers recorded since the last step was kept: what the next step caused.
    private var causedRequests: [Int] = []
    /// The route changes made since the current generation started (`set route X`, `remove route Y`), which a
    /// scenario saved from the session would not keep.
    private var routeChanges: [String] = []
    /// Counts the runtimes replaced (by a reset or rewind), so what a replaced runtime still reports, such as a
    /// delayed answer cancelled as it stops, lands in no later journal or step.
    private var generation = 0

    init(id: String, scenario: Scenario, overrides: JSONValue? = nil, journalCapacity: Int, makeDriver: @escaping @Sendable (Services) async -> ModelDriver,
         services: [ServiceDefinition], durableStores: DurableStores, settledStates: SettledStates, events: EventBroadcaster, logger: Logger) {
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
        self.journal = RequestJournal(capacity: journalCapacity)
    }

    // MARK: Life cycle

    /// Builds the first generation; the host calls this once.
    func start() async throws(HostError) {
        await takeTurn()
        defer { endTurn() }
        try await startRuntime()
        await remember(.start, tell: false)
    }

    /// Back to the scenario's start: seed (a durable store too), clock, response sequences, empty journal and
    /// recording.
    public func reset() async throws(HostError) {
        await takeTurn()
        defer { endTurn() }
        try await restart()
        events.publish(.clockMoved(now: try await live().clock.now()))
        await remember(.reset)
        logger.info("session reset to the scenario's start")
    }

    /// A new generation from the scenario's start, with an empty journal.
    private func restart() async throws(HostError) {
        generation += 1
        try await live().stop()
        runtime = nil
        journal.clear()
        try await startRuntime(resetStore: true)
    }

    /// Stops the Model and ends every event stream. Work in flight (an action waiting on the live network) is
    /// cancelled first, so closing never waits for a slow server.
    func close() async {
        // The host has forgotten this session, so its id may name a new one already: stop speaking for it.
        isClosing = true
        settledStates.set(nil, for: id)
        let current = runtime
        await current?.stop()
        await takeTurn()
        defer { endTurn() }
        // A reset that held the turn meanwhile built a new generation: stop that one too.
        if let runtime, runtime.clock !== current?.clock { await runtime.stop() }
        runtime = nil
        events.finish()
    }

    private func startRuntime(resetStore: Bool = false) async throws(HostError) {
        let generation = generation
        let inputs = SessionRuntime.Inputs(
            makeDriver: makeDriver, services: serviceDefinitions,
            journal: { [weak self] exchange in await self?.record(exchange, of: generation) },
            durableStores: durableStores, logger: logger)
        let runtime = try await SessionRuntime.start(scenario, inputs, resetStore: resetStore)
        self.runtime = runtime
        // After a reset, every fake's state is told again (its version counts from 0 in the new generation).
        publishedServiceVersions = resetStore ? Dictionary(uniqueKeysWithValues: serviceDefinitions.map { ($0.name, -1) }) : [:]
        await runtime.clock.onTick { [weak self] in _ = try? await self?.publishStateIfChanged() }
        if events.hasSubscribers {
            _ = try? await publishStateIfChanged()
        } else {
            lastState = nil
        }
    }

    /// The current generation; missing only once the session was deleted (a client may still hold it).
    private func live() throws(HostError) -> SessionRuntime {
        guard let runtime else { throw HostError(.unknownSession, "session '\(id)' was deleted.") }
        return runtime
    }

    private func takeTurn() async {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        setSettledState(nil)
    }

    private func setSettledState(_ state: ModelState?) {
        settledState = state
        settledStateVersion += 1
        if !isClosing { settledStates.set(state, for: id) }
    }

    private func endTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    // MARK: Model

    /// Performs `action` with `arguments` (a JSON object) and returns the Model's state once it has settled.
    /// - Throws: ``HostError`` `.unknownAction` or `.invalidArguments`; the Model is not touched then.
    @discardableResult
    public func perform(_ action: String, arguments: JSONValue = .object([:])) async throws(HostError) -> ModelState {
        await takeTurn()
        defer { endTurn() }
        let state = try await performNow(action, arguments)
        await remember(.action(name: action, arguments: arguments))
        return state
    }

    private func performNow(_ action: String, _ arguments: JSONValue) async throws(HostError) -> ModelState {
        let runtime = try live()
        let work: @Sendable () async -> Void
        do {
            work = try runtime.model.prepare(action, arguments)
        } catch {
            logger.notice("action refused: \(error.message)", metadata: ["action": "\(action)"])
            throw error
        }
        logger.info("action \(action)", metadata: ["action": "\(action)"])
        await runtime.clock.spawn(work)
        await runtime.clock.settle()
        return try await publishStateIfChanged()
    }

    /// The Model's current state.
    public func state() async throws(HostError) -> ModelState {
        if let settledState { return settledState }
        let version = settledStateVersion
        let state = try await live().model.state()
        if !busy, version == settledStateVersion { setSettledState(state) }
        return state
    }

    // MARK: Clock

    /// The session's clock.
    public func now() async throws(HostError) -> Date {
        try await live().clock.now()
    }

    /// Moves the clock forward, letting the Model do what falls due, and returns the new time.
    /// - Parameter play: The move continues a play (the dashboard's *Play*): the history keeps a play's moves made
    ///   one after another as one step.
    @discardableResult
    public func advanceClock(by duration: Duration, play: Bool = false) async throws(HostError) -> Date {
        try await moveClock(play ? .play(moves: [duration]) : .advanceClock(by: duration))
    }

    /// Sets the clock (forward wakes what falls due; backward wakes nothing) and returns the new time.
    @discardableResult
    public func setClock(to instant: Date) async throws(HostError) -> Date {
        try await moveClock(.setClock(to: instant))
    }

    /// The most timers one clock move may fire before it stops short.
    public static let wakeLimit = 10_000

    private func moveClock(_ change: SessionHistory.Change) async throws(HostError) -> Date {
        await takeTurn()
        defer { endTurn() }
        do {
            let now = try await moveClockNow(change)
            await remember(change)
            return now
        } catch where error.code == .clockMoveTooLong {
            // The clock moved part of the way, deterministically: a replay moves it as far.
            await remember(change)
            throw error
        }
    }

    private func moveClockNow(_ change: SessionHistory.Change) async throws(HostError) -> Date {
        let clock = try live().clock
        guard clock.isMovable else {
            throw HostError(.clockNotMovable, "session '\(id)' runs on the system clock (scenario '\(scenario.name)' says clock: system), which cannot be advanced or set; use a scenario with a frozen or running clock.")
        }
        var completed = true
        switch change {
        case .advanceClock(let duration): completed = await clock.advance(by: duration, wakeLimit: Self.wakeLimit)
        case .setClock(let instant): completed = await clock.set(to: instant, wakeLimit: Self.wakeLimit)
        case .play(let moves):
            // Each move as the client made it; one stopped short by the wake limit was followed by the next all the same.
            for move in moves {
                if await !clock.advance(by: move, wakeLimit: Self.wakeLimit) { completed = false }
            }
        default: preconditionFailure("only clock moves move the clock")
        }
        let now = await clock.now()
        logger.info("clock moved to \(InstantText.format(now))")
        try await publishStateIfChanged()
        // Last, so that a watcher knows everything the move caused has been reported.
        events.publish(.clockMoved(now: now))
        guard completed else {
            throw HostError(.clockMoveTooLong, "moving the clock of session '\(id)' woke sleeping work \(Self.wakeLimit) times, the most one move may; it stopped at \(InstantText.format(now)). Move it in smaller steps.")
        }
        return now
    }

    // MARK: Key-value state

    /// Every key in the session's store, sorted.
    public func keyValueKeys() async throws(HostError) -> [String] {
        let store = try live().store
        do { return try await store.keys() } catch { throw storeError(error) }
    }

    /// The value under `key`.
    /// - Throws: ``HostError`` `.unknownKey` when there is none.
    public func keyValue(_ key: String) async throws(HostError) -> JSONValue {
        try KeyName.validate(key)
        let store = try live().store
        let data: Data?
        do { data = try await store.data(forKey: key) } catch { throw storeError(error) }
        guard let data else { throw unknownKey(key) }
        return (try? JSONValue(json: data)) ?? .string(String(decoding: data, as: UTF8.self))
    }

    /// Stores `value` under `key`. The Model sees it the next time it reads the key.
    public func setKeyValue(_ key: String, to value: JSONValue) async throws(HostError) {
        try KeyName.validate(key)
        await takeTurn()
        defer { endTurn() }
        try await setKeyValueNow(key, value)
        await remember(.setKeyValue(key: key, value: value))
    }

    private func setKeyValueNow(_ key: String, _ value: JSONValue) async throws(HostError) {
        let store = try live().store
        do { try await store.setData(value.jsonData, forKey: key) } catch { throw storeError(error) }
        logger.info("key-value entry '\(key)' set")
    }

    /// Removes `key`.
    /// - Throws: ``HostError`` `.unknownKey` when there is none.
    public func removeKeyValue(_ key: String) async throws(HostError) {
        try KeyName.validate(key)
        await takeTurn()
        defer { endTurn() }
        try await removeKeyValueNow(key)
        await remember(.removeKeyValue(key: key))
    }

    private func removeKeyValueNow(_ key: String) async throws(HostError) {
        let store = try live().store
        let existed: Bool
        do {
            existed = try await store.data(forKey: key) != nil
            if existed { try await store.removeValue(forKey: key) }
        } catch {
            throw storeError(error)
        }
        guard existed else { throw unknownKey(key) }
        logger.info("key-value entry '\(key)' removed")
    }

    /// Every key-value entry and the clock's time, read together between operations: where the session stands.
    public func snapshot() async throws(HostError) -> (keyValues: [String: Data], now: Date) {
        await takeTurn()
        defer { endTurn() }
        let runtime = try live()
        var values: [String: Data] = [:]
        do {
            for key in try await runtime.store.keys() {
                if let data = try await runtime.store.data(forKey: key) { values[key] = data }
            }
        } catch {
            throw storeError(error)
        }
        return (values, await runtime.clock.now())
    }

    private func unknownKey(_ key: String) -> HostError {
        HostError(.unknownKey, "session '\(id)' has no key-value entry '\(key)'.")
    }

    private func storeError(_ error: any Error) -> HostError {
        HostError(.storeFailed, "the key-value store of session '\(id)' failed: \(error)")
    }

    // MARK: A team's services

    /// The services the team defines, each with what this session runs: `fake` or `live`.
    public func services() -> [(definition: ServiceDefinition, isFake: Bool)] {
        serviceDefinitions.map { definition in
            if case .live? = scenario.services[definition.name] { return (definition, false) }
            return (definition, true)
        }
    }

    /// The state of the fake of service `name`, as JSON.
    /// - Throws: ``HostError`` `.unknownService`, or `.serviceIsLive` when the scenario runs it live.
    public func serviceState(_ name: String) throws(HostError) -> JSONValue {
        let (definition, fake) = try serviceFake(name)
        return definition.encode(fake.state())
    }

    /// Replaces the whole state of the fake of service `name` (the Model sees it the next time it calls the
    /// service) and returns it as stored.
    /// - Throws: ``HostError`` `.invalidServiceState` naming the field, as a scenario section's problems do.
    @discardableResult
    public func replaceServiceState(_ name: String, with json: JSONValue) async throws(HostError) -> JSONValue {
        await takeTurn()
        defer { endTurn() }
        let stored = try await replaceServiceStateNow(name, json)
        await remember(.replaceServiceState(service: name, state: json))
        return stored
    }

    /// Changes part of the state of the fake of service `name` with a JSON merge patch (RFC 7396: objects merge key
    /// by key, a `null` member removes its key, anything else replaces what it patches), then stores the result as
    /// ``replaceServiceState(_:with:)`` stores a whole state: the same checks, the same events, one step of the
    /// history. Returns the state as stored.
    /// - Throws: ``HostError`` `.invalidServiceState` when the patched state is not one the service takes, with the
    ///   message a replacement by that state would get.
    @discardableResult
    public func patchServiceState(_ name: String, with patch: JSONValue) async throws(HostError) -> JSONValue {
        await takeTurn()
        defer { endTurn() }
        let (definition, fake) = try serviceFake(name)
        let patched = definition.encode(fake.state()).mergePatched(with: patch)
        let stored = try await replaceServiceStateNow(name, patched)
        // The step keeps the patch, which the history shows as the client sent it, and the whole state it made,
        // which a rewind replaces the state with (as setRoute keeps both the JSON and the route it was read as).
        // Replaying the state rather than the patch makes the replay exact by construction, through the same path
        // a PUT's replay takes, instead of relying on the fake holding the same state at that step again.
        await remember(.patchServiceState(service: name, patch: patch, state: patched))
        return stored
    }

    private func replaceServiceStateNow(_ name: String, _ json: JSONValue) async throws(HostError) -> JSONValue {
        let (definition, fake) = try serviceFake(name)
        switch ServiceStateDecoding.decode(json, for: definition, section: name) {
        case .success(let state): fake.replace(state)
        case .failure(let failures):
            // Each problem at its JSON pointer in the state, as a session's overrides place theirs.
            let problems = failures.list.map { "\(ServiceStateDecoding.pointer(to: $0.path)): \($0.message)" }
            throw HostError(.invalidServiceState, problems.joined(separator: " "))
        }
        logger.info("state of service '\(name)' replaced")
        try await publishStateIfChanged()
        return definition.encode(fake.state())
    }

    private func serviceFake(_ name: String) throws(HostError) -> (ServiceDefinition, ServiceFakeControl) {
        guard let definition = serviceDefinitions.first(where: { $0.name == name }) else {
            let names = serviceDefinitions.map(\.name)
            let known = names.isEmpty ? "this daemon defines none" : "its services: \(names.joined(separator: ", "))"
            throw HostError(.unknownService, "session '\(id)' has no service '\(name)'.\(Suggestion.didYouMean(name, among: names)) (\(known).)")
        }
        guard let fake = try live().fakes[name] else {
            throw HostError(.serviceIsLive, "session '\(id)' runs the live '\(name)' (scenario '\(scenario.name)' says \(name): live), which has no fake state to read or replace; use a scenario that fakes it.")
        }
        return (definition, fake)
    }

    // MARK: Recording

    /// Everything a `record` session has sent to the live network, in full, in arrival order.
    /// - Throws: ``HostError`` `.notRecording` for a session whose scenario does not record; `.recordingTooLong`
    ///   when it recorded more than it can keep.
    public func recording() async throws(HostError) -> (exchanges: [RecordedExchange], startedAt: Date) {
        let runtime = try live()
        guard let recorder = runtime.recorder else {
            throw HostError(.notRecording, "session '\(id)' does not record: its scenario '\(scenario.name)' has network mode '\(scenario.network.mode.rawValue)'; start a session of a scenario with 'network: record'.")
        }
        let overflowed = await recorder.overflowed
        guard overflowed == 0 else {
            throw HostError(.recordingTooLong, "session '\(id)' recorded more than \(Recorder.capacity) requests (\(overflowed) more were forwarded but not kept); reset the session and record a shorter run.")
        }
        return (await recorder.exchanges, runtime.startedAt)
    }

    // MARK: Journal and events

    /// The journal: every request the Model made, oldest first, bounded.
    public func requestJournal() -> RequestJournal { journal }

    /// Adds the route `name` to the running session, or replaces its route of that name, from `json` (a route as
    /// a scenario file writes it); a reset undoes it.
    /// - Throws: ``HostError`` `.invalidOverrides` with each problem at its JSON pointer.
    public func setRoute(_ json: JSONValue, named name: String, models: [String], services: [ServiceDefinition]) async throws(HostError) {
        let route: Route
        do {
            route = try ScenarioOverrides.route(json, named: name, in: scenario, models: models, services: services)
        } catch {
            throw HostError(.invalidOverrides, "route '\(name)' for session '\(id)' has problems: \(error). It is read as a route of a scenario file's network.routes.")
        }
        await takeTurn()
        defer { endTurn() }
        try await live().network.setRoute(route)
        await remember(.setRoute(name: name, json: json, route: route))
        logger.notice("route \(name) set for this session")
    }

    /// Removes the route `name` from the running session (one of its scenario's, or one added); a reset restores it.
    /// - Throws: ``HostError`` `.unknownRoute` when the session has no route of that name.
    public func removeRoute(named name: String) async throws(HostError) {
        await takeTurn()
        defer { endTurn() }
        try await removeRouteNow(name)
        await remember(.removeRoute(name: name))
    }

    private func removeRouteNow(_ name: String) async throws(HostError) {
        let network = try live().network
        guard await network.removeRoute(named: name) else {
            let names = await network.routeNames()
            throw HostError(.unknownRoute, "session '\(id)' has no route '\(name)'.\(Suggestion.didYouMean(name, among: names)) Its routes: \(names.isEmpty ? "none" : names.joined(separator: ", ")).")
        }
        logger.notice("route \(name) removed for this session")
    }

    /// Switches the session's network into `conditions` until they are set again or the session is reset. The
    /// switch is a step of the history; each request the conditions answer or delay is journaled with them.
    @discardableResult
    public func setNetworkConditions(_ conditions: NetworkConditions) async throws(HostError) -> NetworkConditions {
        await takeTurn()
        defer { endTurn() }
        try await live().network.setConditions(conditions)
        logger.notice("network conditions set: \(conditions)")
        await remember(.setNetworkConditions(conditions))
        return conditions
    }

    /// The conditions the session's network is in (``NetworkConditions/normal`` unless switched).
    public func networkConditions() async throws(HostError) -> NetworkConditions {
        try await live().network.currentConditions()
    }

    /// Empties the journal.
    public func clearJournal() async {
        await takeTurn()
        defer { endTurn() }
        journal.clear()
        await remember(.clearJournal)
        logger.info("journal cleared")
    }

    /// A stream of this session's events from now on, numbered; it ends when the session is deleted.
    /// - Parameter lastEventID: The id of the last event a reconnecting client saw: the stream then starts with the
    ///   retained events after it, or says there is a gap.
    /// - Throws: ``HostError`` `.tooManySubscribers` past the host's limits (``HostLimits``).
    public func eventStream(after lastEventID: Int? = nil) async throws(HostError) -> EventSubscription {
        let stream = try events.subscribe(session: id, after: lastEventID)
        // From now on a change must be told from the state the watcher starts from.
        if lastState == nil, let state = try? await live().model.state(), lastState == nil { lastState = state }
        return stream
    }

    /// A summary for listings.
    public func info() async throws(HostError) -> SessionInfo {
        SessionInfo(id: id, scenario: scenario.name, model: scenario.model, now: try await now(),
                    requests: journal.entries.count, unmatchedRequests: journal.unmatched.count)
    }

    private func record(_ exchange: NetworkExchange, of generation: Int) {
        guard generation == self.generation else { return }
        if causedRequests.last != exchange.sequence { causedRequests.append(exchange.sequence) }
        if exchange.pending == false {
            // A delayed answer delivered: it completes the pending entry logged when the request arrived.
            guard journal.complete(exchange) else { return }
            logger.debug("\(exchange.method) \(exchange.url) delivered (\(exchange.status.map { "\($0)" } ?? exchange.fault ?? ""))")
            events.publish(.requestJournaled(exchange: exchange))
            return
        }
        var metadata: Logger.Metadata = ["http_method": "\(exchange.method)", "http_url": "\(exchange.url)"]
        let answer = (exchange.status.map { "\($0)" } ?? exchange.fault ?? exchange.outcome ?? "")
            + (exchange.deliversAt.map { ", pending until \(InstantText.format($0))" } ?? "")
        if let service = exchange.service {
            logger.info("\(service): \(exchange.method) (\(answer))", metadata: metadata)
        } else if exchange.route == nil, let condition = exchange.condition {
            logger.info("\(exchange.method) \(exchange.url) answered by the network conditions \(condition) (\(answer))", metadata: metadata)
        } else if let route = exchange.route {
            metadata["route"] = "\(route)"
            logger.info("\(exchange.method) \(exchange.url) → route \(route) (\(answer))", metadata: metadata)
        } else if exchange.live == true {
            // Not a miss: a live or record scenario sends what no route answers to the network, as it says.
            let what = scenario.network.mode == .record ? "recorded" : "answered by the live network"
            logger.info("\(exchange.method) \(exchange.url) \(what) (\(answer))", metadata: metadata)
        } else {
            // The log never shows a credential the request carried; the journal, which tests read, keeps it.
            let closest = exchange.nearMisses?.first.map { "; \($0.redactingSecrets().explanation)" } ?? ""
            logger.warning("\(exchange.method) \(exchange.url) matched no route\(closest)", metadata: metadata)
        }
        journal.record(exchange)
        events.publish(.requestJournaled(exchange: exchange))
    }

    @discardableResult
    private func publishStateIfChanged() async throws(HostError) -> ModelState {
        let runtime = try live()
        for definition in serviceDefinitions {
            guard let fake = runtime.fakes[definition.name] else { continue }
            let version = fake.version()
            if publishedServiceVersions[definition.name, default: 0] != version {
                publishedServiceVersions[definition.name] = version
                events.publish(.serviceChanged(service: definition.name, state: definition.encode(fake.state())))
            }
        }
        let state = await runtime.model.state()
        // Called once the Model has settled (after an operation's work, or a running clock's tick).
        setSettledState(state)
        if state != lastState {
            lastState = state
            events.publish(.stateChanged(state: state))
        }
        return state
    }

    // MARK: History

    /// What clients did to the session since it started, each step with its virtual time and the requests it caused.
    public func history() -> SessionHistory { changes }

    /// Why the session cannot be rewound, or nil when it can: a rewind replays the steps, which gives the same
    /// session only when nothing outside it (the live network, the system's clock or randomness, a store shared
    /// with other sessions) takes part.
    public var notRewindableBecause: String? {
        if changes.overflowed {
            return "its history passed \(SessionHistory.limit) steps, the most one session keeps; start a new session to rewind again"
        }
        if scenario.usesLiveNetwork { return "its answers come from the live network (scenario '\(scenario.name)' has network mode '\(scenario.network.mode.rawValue)' or a live route), which a replay would ask again" }
        if scenario.clock.mode != .frozen { return "its clock is \(scenario.clock.mode.rawValue) (scenario '\(scenario.name)'), so it moves with the system's time, which a replay cannot repeat" }
        if case .system = scenario.random { return "it draws from the system's random generator (scenario '\(scenario.name)' says random: system)" }
        if scenario.keyValueStore == .durable { return "its key-value store is a database file shared with the scenario's other sessions (keyValue.store: durable), which a replay would reset" }
        if let live = serviceDefinitions.first(where: { if case .live? = scenario.services[$0.name] { true } else { false } }) {
            return "it runs the live '\(live.name)' service"
        }
        return nil
    }

    /// Why a scenario saved from the session would not start as the session stands, or nil when it would. A saved
    /// scenario extends the session's scenario with the key-value state as its seed and the time as its start, so
    /// it cannot keep other overrides, routes changed while the session ran, or network conditions.
    public var notSavableBecause: String? {
        get async {
            if case .object(let sections)? = overrides {
                var lost = sections.keys.filter { $0 != "clock" && $0 != "keyValue" }
                if case .object(let keyValue)? = sections["keyValue"] {
                    lost += keyValue.keys.filter { $0 != "seed" && $0 != "inheritSeed" }.map { "keyValue.\($0)" }
                }
                if !lost.isEmpty {
                    return "it was created with overrides (\(lost.sorted().joined(separator: ", "))) that a scenario extending '\(scenario.name)' with the session's key-value state and time would not keep; write that scenario by hand, or save a session created without them"
                }
            }
            if !routeChanges.isEmpty {
                return "its routes were changed while it ran (\(routeChanges.joined(separator: ", "))), which the saved scenario would not keep; reset the session first, or write the routes into a scenario by hand"
            }
            if let conditions = try? await live().network.currentConditions(), conditions != .normal {
                return "its network conditions are '\(conditions)', which the saved scenario would not keep; switch them back first (PUT /v1/sessions/\(id)/network/conditions with {}, or scenarioctl network normal)"
            }
            return nil
        }
    }

    /// Returns the session to the moment after step `number` of its history (0: its start) by rebuilding it from
    /// its scenario and replaying steps 1…`number`; later steps are forgotten. Returns the Model's state.
    /// - Throws: ``HostError`` `.notRewindable` (with why) or `.unknownStep`.
    public func rewind(to number: Int) async throws(HostError) -> ModelState {
        await takeTurn()
        defer { endTurn() }
        if let reason = notRewindableBecause {
            throw HostError(.notRewindable, "session '\(id)' cannot be rewound: \(reason).")
        }
        guard changes.steps.indices.contains(number) else {
            throw HostError(.unknownStep, "session '\(id)' has no step \(number); its history has steps 0 to \(changes.steps.count - 1) (GET /v1/sessions/\(id)/history lists them).")
        }
        let replay = changes.steps.dropFirst().prefix(number).map(\.change)
        changes.removeAll()
        causedRequests = []
        try await restart()
        await remember(.start, tell: false)
        for change in replay {
            do {
                try await apply(change)
            } catch where error.code == .clockMoveTooLong {
                // The original move stopped there too.
            }
            await remember(change, tell: false)
        }
        logger.notice("session rewound to step \(number)")
        let state = try await publishStateIfChanged()
        events.publish(.clockMoved(now: try await live().clock.now()))
        events.publish(.historyChanged(newestStep: number))
        return state
    }

    /// Makes `change` again, holding the turn already.
    private func apply(_ change: SessionHistory.Change) async throws(HostError) {
        switch change {
        case .start: break
        case .action(let name, let arguments): _ = try await performNow(name, arguments)
        case .advanceClock, .setClock, .play: _ = try await moveClockNow(change)
        case .setKeyValue(let key, let value): try await setKeyValueNow(key, value)
        case .removeKeyValue(let key): try await removeKeyValueNow(key)
        case .replaceServiceState(let service, let state), .patchServiceState(let service, _, let state):
            _ = try await replaceServiceStateNow(service, state)
        case .setRoute(_, _, let route): try await live().network.setRoute(route)
        case .removeRoute(let name): try await removeRouteNow(name)
        case .setNetworkConditions(let conditions): try await live().network.setConditions(conditions)
        case .clearJournal: journal.clear()
        case .reset: try await restart()
        }
    }

    /// Keeps `change` as the next step (a play's move in the play's step, when that is the newest), with the time
    /// now and the requests recorded since the last step, and tells watchers when `tell` (a rewind tells them once,
    /// at the end).
    private func remember(_ change: SessionHistory.Change, tell: Bool = true) async {
        let now = (try? await live().clock.now()) ?? Date()
        if case .play(let moves) = change, changes.extendPlay(with: moves, time: now, requests: causedRequests) {
            // Kept in the play's step.
        } else {
            changes.append(change, time: now, requests: causedRequests)
        }
        causedRequests = []
        switch change {
        case .start, .reset: routeChanges = []
        case .setRoute(let name, _, _): routeChanges.append("set route \(name)")
        case .removeRoute(let name): routeChanges.append("remove route \(name)")
        default: break
        }
        if tell, let newest = changes.steps.last?.number { events.publish(.historyChanged(newestStep: newest)) }
    }
}
