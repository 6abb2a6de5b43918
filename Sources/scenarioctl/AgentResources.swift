import ControlAPI
import Foundation
import MCP
import ScenarioClient
import Services

/// The MCP resources of `scenarioctl mcp`: each scenario's file (`scenariod://scenarios/NAME/scenario.yaml`, as the
/// daemon serves it) and each open session's state (`scenariod://sessions/ID/state`). Every read goes through the
/// control API, so no path outside the daemon's scenario directories can be named. A subscription to a session's
/// state follows the session's event stream and sends `notifications/resources/updated` on each change.
actor AgentResources {
    private let client: ControlClient
    private var subscriptions: [String: Task<Void, Never>] = [:]

    init(client: ControlClient) {
        self.client = client
    }

    private enum Address {
        case scenario(String)
        case session(String)

        init?(_ uri: String) {
            guard uri.hasPrefix("scenariod://") else { return nil }
            let parts = uri.dropFirst("scenariod://".count).split(separator: "/", omittingEmptySubsequences: false).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            switch (parts.count, parts.first, parts.last) {
            case (3, "scenarios", "scenario.yaml"): self = .scenario(parts[1])
            case (3, "sessions", "state"): self = .session(parts[1])
            default: return nil
            }
        }
    }

    private static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }

    static func uri(scenario: String) -> String { "scenariod://scenarios/\(segment(scenario))/scenario.yaml" }
    static func uri(session: String) -> String { "scenariod://sessions/\(segment(session))/state" }

    func list() async throws -> [Resource] {
        let scenarios = try await client.scenarios().map { scenario in
            Resource(name: "\(scenario.name) scenario", uri: Self.uri(scenario: scenario.name),
                     description: "The scenario file of '\(scenario.name)'\(scenario.model.map { " (Model \($0))" } ?? "")", mimeType: "application/yaml")
        }
        let sessions = try await client.sessions().map { session in
            Resource(name: "session \(session.id) state", uri: Self.uri(session: session.id),
                     description: "The state of \(session.model) in session '\(session.id)' of '\(session.scenario)'; subscribe to hear of each change",
                     mimeType: "application/json")
        }
        return scenarios + sessions
    }

    /// The resources' addresses as URI templates (RFC 6570), for clients that offer them before any exists.
    static let templates = [
        Resource.Template(uriTemplate: "scenariod://sessions/{id}/state", name: "session state",
                          description: "The Model's state in an open session (list_sessions names them); subscribe to hear of each change",
                          mimeType: "application/json"),
        Resource.Template(uriTemplate: "scenariod://scenarios/{name}/scenario.yaml", name: "scenario file",
                          description: "A scenario's file as the daemon serves it (list_scenarios names them)", mimeType: "application/yaml"),
    ]

    func read(_ uri: String) async throws -> [Resource.Content] {
        switch Address(uri) {
        case .scenario(let name)?:
            return [.text(try await Self.refusingClientErrors(uri) { try await self.client.scenarioFile(name).text }, uri: uri, mimeType: "application/yaml")]
        case .session(let id)?:
            let state = try await Self.refusingClientErrors(uri) { try await self.client.state(session: id) }
            return [.text(String(decoding: state.jsonData, as: UTF8.self), uri: uri, mimeType: "application/json")]
        case nil:
            throw Self.unknown(uri)
        }
    }

    /// Follows a session's state until unsubscribed or the session ends; a scenario file is only read, never watched.
    func subscribe(_ uri: String, notify: @escaping @Sendable (String) async -> Void) async throws {
        guard let address = Address(uri) else { throw Self.unknown(uri) }
        guard case .session(let id) = address, subscriptions[uri] == nil else { return }
        let events = try await Self.refusingClientErrors(uri) { try await self.client.events(session: id) }
        subscriptions[uri] = Task { [weak self] in
            do {
                for try await event in events where event.name == "stateChanged" || event.name == "gap" {
                    await notify(uri)
                }
            } catch {}
            await self?.ended(uri)
        }
    }

    func unsubscribe(_ uri: String) {
        subscriptions.removeValue(forKey: uri)?.cancel()
    }

    private func ended(_ uri: String) { subscriptions[uri] = nil }

    /// The protocol's resource-not-found error (-32002), with the URI as its data's `uri`, as the spec says.
    private static func notFound(_ uri: String, _ message: String) -> MCPError {
        MCPError.serverError(code: -32002, message: "Resource not found: \(message)")
    }

    private static func unknown(_ uri: String) -> MCPError {
        notFound(uri, "'\(uri)' is not a resource of scenarioctl mcp: it serves scenariod://scenarios/NAME/scenario.yaml and scenariod://sessions/ID/state, read through the daemon; it reads no other file.")
    }

    /// A daemon refusal: an unknown scenario or session is resource-not-found (with the API's code); another, the
    /// protocol's invalid-params error.
    private static func refusingClientErrors<T: Sendable>(_ uri: String, _ body: @Sendable () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ScenarioClientError {
            let message = "\(error.code.map { "\($0): " } ?? "")\(error.description)"
            if let code = error.code, [.unknownSession, .unknownScenario].contains(code) { throw Self.notFound(uri, message) }
            throw MCPError.invalidParams(message)
        }
    }
}
