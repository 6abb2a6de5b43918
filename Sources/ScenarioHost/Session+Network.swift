import ControlAPI
public import Fakes
public import Foundation
import Logging
public import ScenarioFormat
public import Services
import SessionRuntime

// What the network fake answers with: a record session's recording, routes set while it runs, network conditions.
extension Session {
    // MARK: Recording

    /// Everything a `record` session has sent to the live network, in full, in arrival order.
    /// - Throws: ``HostError`` `.notRecording` for a session whose scenario does not record; `.recordingTooLong`
    ///   when it recorded more than it can keep.
    public func recording() async throws(HostError) -> (exchanges: [RecordedExchange], startedAt: Date) {
        let runtime = try live()
        guard let recorder = runtime.recorder else {
            throw HostError(.notRecording, "session '\(id)' does not record: its scenario '\(scenario.name)' has network mode '\(scenario.network.mode.rawValue)'; start a session of a scenario with 'network: record'.")
        }
        if let reason = await recorder.overflowReason {
            throw HostError(.recordingTooLong, "session '\(id)' \(reason), so the recording was let go of (\(await recorder.overflowed) requests were forwarded but not kept); reset the session and record a shorter run.")
        }
        return (await recorder.exchanges, runtime.startedAt)
    }



    // MARK: Routes and network conditions

    /// Adds the route `name` to the running session, or replaces its route of that name, from `json` (a route as
    /// a scenario file writes it); a reset undoes it.
    /// - Throws: ``HostError`` `.invalidOverrides` with each problem at its JSON pointer.
    public func setRoute(_ json: JSONValue, named name: String, models: [String], services: [ServiceDefinition]) async throws(HostError) {
        var overrides = overrides
        if case .object(var sections) = overrides {
            sections["schedule"] = nil
            overrides = .object(sections)
        }
        let key = ResolvedRoutes.Key(generation: catalogGeneration, scenario: scenario.name, overrides: overrides, name: name, json: json)
        let route = try resolvedRoutes.route(for: key) { () throws(HostError) in
            do {
                return try ScenarioOverrides.route(json, named: name, in: scenario, models: models, services: services)
            } catch {
                throw HostError(.invalidOverrides, "route '\(name)' for session '\(id)' has problems: \(error). It is read as a route of a scenario file's network.routes.")
            }
        }
        try admit("set route '\(name)'")
        await takeTurn()
        defer { endTurn() }
        try await live().onNetwork { await $0.setRoute(route) }
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

    func removeRouteNow(_ name: String) async throws(HostError) {
        let runtime = try live()
        guard await runtime.onNetwork({ await $0.removeRoute(named: name) }) else {
            let names = await runtime.onNetwork { await $0.routeNames() }
            throw HostError(.unknownRoute, "session '\(id)' has no route '\(name)'.\(Suggestion.didYouMean(name, among: names)) Its routes: \(names.isEmpty ? "none" : names.joined(separator: ", ")).")
        }
        logger.notice("route \(name) removed for this session")
    }

    /// Switches the session's network into `conditions` until they are set again or the session is reset. The
    /// switch is a step of the history; each request the conditions answer or delay is journaled with them.
    @discardableResult
    public func setNetworkConditions(_ conditions: NetworkConditions) async throws(HostError) -> NetworkConditions {
        let known = await takeTurn()
        defer { endTurn() }
        if try await setNetworkConditionsNow(conditions) {
            _ = try await publishStateIfChanged()
        } else {
            // No stream broke, so the Model did nothing: its state is the one it was.
            setSettledState(known)
        }
        logger.notice("network conditions set: \(conditions)")
        let escaped = reportEscapes(during: "the network switch")
        await remember(.setNetworkConditions(conditions))
        try failOnEscapes(escaped, during: "the network switch")
        return conditions
    }

    /// Switches the network, holding the turn already, and lets the Model see the streams it broke: it has, when this
    /// returns, so what the next step finds does not depend on how soon it comes.
    /// - Returns: Whether the switch broke a stream.
    @discardableResult
    func setNetworkConditionsNow(_ conditions: NetworkConditions) async throws(HostError) -> Bool {
        let runtime = try live()
        guard await runtime.onNetwork({ await $0.setConditions(conditions) }) else { return false }
        await runtime.clock.settle()
        return true
    }

    /// The conditions the session's network is in (``NetworkConditions/normal`` unless switched).
    public func networkConditions() async throws(HostError) -> NetworkConditions {
        try await live().onNetwork { await $0.currentConditions() }
    }
}
