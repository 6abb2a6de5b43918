import ControlAPI
import Fakes
import Foundation
import Logging
import ScenarioFormat
import Services
import SessionRuntime

// The session's history: every step a client took, rewinding to one, and replaying them.
extension Session {
    // MARK: History

    /// What clients did to the session since it started, each step with its virtual time and the requests it caused.
    public func history() -> SessionHistory { changes }

    /// Why the session cannot be rewound, or nil when it can: a rewind replays the steps, which gives the same
    /// session only when nothing outside it (the live network, the system's clock or randomness, a store shared
    /// with other sessions) takes part.
    public var notRewindableBecause: String? {
        if let overflow = changes.overflowReason {
            return "\(overflow); start a new session to rewind again"
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
                // A schedule seed is kept: the saved scenario names it (SavedScenario).
                var lost = sections.keys.filter { !["clock", "keyValue", "schedule"].contains($0) }
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
        var replay = ArraySlice(changes.steps.dropFirst().prefix(number).map(\.change))
        changes.removeAll()
        held.set(.history, to: 0)
        _ = journaling.takeCaused()
        try await restart()
        await remember(.start, tell: false)
        try await LongRun.repeating { () async throws(HostError) -> Bool in
            guard let change = replay.popFirst() else { return false }
            do throws(HostError) {
                try await apply(change)
            } catch where error.code == .clockMoveTooLong {
                // The original move stopped there too.
            }
            await remember(change, tell: false)
            return true
        }
        logger.notice("session rewound to step \(number)")
        let state = try await publishStateIfChanged()
        let step = "the replay of steps 1 to \(number)"
        let escaped = reportEscapes(during: step)
        events.publish(.clockMoved(now: try live().clock.now()))
        events.publish(.historyChanged(newestStep: number))
        try failOnEscapes(escaped, during: step)
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
        case .setRoute(_, _, let route): try await live().onNetwork { await $0.setRoute(route) }
        case .removeRoute(let name): try await removeRouteNow(name)
        case .setNetworkConditions(let conditions): try await setNetworkConditionsNow(conditions)
        // As the step did first time: the Model reads the push, or sees the end, before the next step.
        case .pushToStream(let stream, let bytes):
            try await pushNow(bytes, into: stream)
            try await live().clock.settle()
        case .closeStream(let stream, let fault, let frame):
            try await closeNow(stream, fault: fault, frame: frame)
            try await live().clock.settle()
        case .sendRequest(let request): _ = try await sendNow(request, keep: false)
        case .openSocket(let request): _ = try await openSocketNow(request)
        case .sendToSocket(let socket, let message): try await socketSendNow(message, on: socket)
        case .closeSocket(let socket, let frame): try await socketCloseNow(socket, frame: frame)
        case .clearJournal: journaling.clear()
        case .reset: try await restart()
        }
    }

    /// Keeps `change` as the next step (a play's move in the play's step, when that is the newest), with the time
    /// now and the requests recorded since the last step, and tells watchers when `tell` (a rewind tells them once,
    /// at the end).
    func remember(_ change: SessionHistory.Change, tell: Bool = true) async {
        let now = (try? live().clock.now()) ?? Date()
        let caused = journaling.takeCaused()
        if case .play(let moves) = change, changes.extendPlay(with: moves, time: now, requests: caused) {
            // Kept in the play's step.
        } else {
            changes.append(change, time: now, requests: caused)
        }
        held.set(.history, to: changes.bytes)
        switch change {
        case .start, .reset: routeChanges = []
        case .setRoute(let name, _, _): routeChanges.append("set route \(name)")
        case .removeRoute(let name): routeChanges.append("remove route \(name)")
        default: break
        }
        if tell, let newest = changes.steps.last?.number { events.publish(.historyChanged(newestStep: newest)) }
    }
}
