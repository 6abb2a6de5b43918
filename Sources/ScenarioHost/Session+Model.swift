import Fakes
import Foundation
import Logging
import ScenarioFormat
public import Services
import SessionRuntime

// The Model's actions and its state.
extension Session {
    // MARK: Model

    /// Performs `action` with `arguments` (a JSON object) and returns the Model's state once it has settled.
    /// - Throws: ``HostError`` `.unknownAction` or `.invalidArguments`; the Model is not touched then.
    @discardableResult
    public func perform(_ action: String, arguments: JSONValue = .object([:])) async throws(HostError) -> ModelState {
        try admit("perform action '\(action)'")
        await takeTurn()
        defer { endTurn() }
        let state = try await performNow(action, arguments)
        let step = "action '\(action)'"
        let escaped = reportEscapes(during: step)
        await remember(.action(name: action, arguments: arguments))
        try failOnEscapes(escaped, during: step)
        return state
    }

    func performNow(_ action: String, _ arguments: JSONValue) async throws(HostError) -> ModelState {
        let runtime = try live()
        let work: @Sendable () async -> Void
        do {
            work = try runtime.model.prepare(action, arguments)
        } catch {
            logger.notice("action refused: \(error.message)", metadata: ["action": "\(action)"])
            throw error
        }
        logger.info("action \(action)", metadata: ["action": "\(action)"])
        await runtime.clock.spawnAndSettle(work)
        return try await publishStateIfChanged()
    }

    /// The Model's current state.
    public func state() async throws(HostError) -> ModelState {
        if let settledState { return settledState }
        let version = settledStateVersion
        let state = try await live().state()
        if !busy, version == settledStateVersion { setSettledState(state) }
        return state
    }
}
