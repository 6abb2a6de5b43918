import ControlAPI
public import Fakes
import Foundation
import Logging
import ScenarioFormat
public import Services

// The fakes of a team's own services: their state, read, replaced and patched.
extension Session {
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
        try admit("replace the state of service '\(name)'")
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
        try admit("patch the state of service '\(name)'")
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

    func replaceServiceStateNow(_ name: String, _ json: JSONValue) async throws(HostError) -> JSONValue {
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
}
