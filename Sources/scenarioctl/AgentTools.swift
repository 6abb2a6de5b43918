import ControlAPI
import Foundation
import MCP
import ScenarioClient
import Services
import Synchronization

/// The tools `scenarioctl mcp` offers a coding agent: the daemon's verbs (``AgentVerb``), and one tool per action of
/// each Model the daemon hosts (``ActionTool``), read from `GET /v1/models` at every `tools/list` so a tool's schema
/// is the Model's own declaration and cannot drift from it.
struct AgentTools: Sendable {
    let client: ControlClient
    /// Called after a tool opened or closed a session: the resource list changed.
    let resourcesChanged: @Sendable () async -> Void
    /// The action tools as the last `tools/list` (or a call's look-up) read them: a call finds its tool here rather
    /// than ask `GET /v1/models` again, which cost each call a second request and the decoding of every Model's
    /// actions. A name not found here is looked up afresh, so a daemon restarted with other Models is followed.
    private let known = Known()

    private final class Known: Sendable {
        let tools = Mutex<[String: ActionTool]>([:])
    }

    /// A tool call refused before or by the daemon: the API's error code and message, or the argument that was wrong.
    /// A tool's refusal: an API code (``APIErrorCode``'s words), or the client's own when no daemon answered
    /// (`daemonUnreachable`, `noAnswer`, `unexpectedResponse`).
    struct Failure: Error {
        var code: String
        var message: String
    }

    /// Every tool: the verbs first, then each Model's actions in the daemon's order.
    func list() async throws -> [Tool] {
        AgentVerb.all.map(\.tool) + (try await actionTools()).map(\.tool)
    }

    /// One tool per action of each Model, as `GET /v1/models` describes them now (and kept for calls).
    private func actionTools() async throws -> [ActionTool] {
        let tools = try await client.models().flatMap { model in model.actions.map { ActionTool(model: model.name, action: $0) } }
        known.tools.withCheckedLock { $0 = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
        return tools
    }

    /// The action tool `name`, as last read, or read afresh when it was not there.
    private func actionTool(named name: String) async throws -> ActionTool? {
        if let tool = known.tools.withCheckedLock({ $0[name] }) { return tool }
        return try await actionTools().first { $0.name == name }
    }

    /// Runs the tool `name`. A refusal is a tool error (`isError`) with the code and message in `structuredContent`
    /// (`{"error": {"code", "message"}}`), which an agent reads and corrects; an unknown tool is a protocol error.
    func call(_ name: String, arguments: [String: MCP.Value]) async throws -> CallTool.Result {
        do {
            let result: JSONValue
            if let verb = AgentVerb.all.first(where: { $0.name == name }) {
                let given = try ToolArguments(arguments, schema: verb.schema)
                result = try await verb.run(client, given)
                if verb.changesResources { await resourcesChanged() }
            } else if let tool = try await actionTool(named: name) {
                result = try await tool.perform(on: client, with: ToolArguments(arguments, schema: tool.schema))
            } else {
                throw MCPError.invalidParams("No tool is named '\(name)'; tools/list names them (the daemon's verbs, and MODEL_ACTION for each Model's actions).")
            }
            return CallTool.Result(content: [.text(text: Self.text(result), annotations: nil, _meta: nil)], structuredContent: Optional.some(MCP.Value(result)))
        } catch let error as ScenarioClientError {
            let code = error.code?.rawValue ?? {
                switch error {
                case .daemonUnreachable: "daemonUnreachable"
                case .noAnswer: "noAnswer"
                case .api, .unexpectedResponse: "unexpectedResponse"
                }
            }()
            return Self.failure(Failure(code: code, message: error.description))
        } catch let failure as Failure {
            return Self.failure(failure)
        }
    }

    private static func failure(_ failure: Failure) -> CallTool.Result {
        CallTool.Result(content: [.text(text: "\(failure.code): \(failure.message)", annotations: nil, _meta: nil)],
                        structuredContent: Optional.some(.object(["error": .object(["code": .string(failure.code), "message": .string(failure.message)])])),
                        isError: true)
    }

    /// Pretty JSON with sorted keys: the text content, for clients that show only text.
    private static func text(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }
}

/// A tool call's arguments, checked against the tool's input schema before anything is sent: an argument the schema
/// does not name, a missing required one, or one of the wrong JSON type is refused naming the argument.
struct ToolArguments: Sendable {
    private let values: [String: JSONValue]

    init(_ arguments: [String: MCP.Value], schema: MCP.Value) throws(AgentTools.Failure) {
        let properties = schema.objectValue?["properties"]?.objectValue ?? [:]
        let required = (schema.objectValue?["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        var values: [String: JSONValue] = [:]
        for (name, value) in arguments.sorted(by: { $0.key < $1.key }) {
            guard let property = properties[name] else {
                throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "'\(name)' is not an argument of this tool; it takes \(properties.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")).")
            }
            let json = JSONValue(value)
            if let type = property.objectValue?["type"]?.stringValue, !Self.value(json, isOfType: type) {
                throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument '\(name)' must be \(Self.article(type)) \(type), not \(json.typeName) (\(String(decoding: json.jsonData, as: UTF8.self).prefix(60))).")
            }
            values[name] = json
        }
        if let missing = required.first(where: { values[$0] == nil }) {
            throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument '\(missing)' is required.")
        }
        self.values = values
    }

    subscript(name: String) -> JSONValue? { values[name] }

    func string(_ name: String) -> String? {
        if case .string(let text)? = values[name] { return text }
        return nil
    }

    /// An integer argument (the schema's check let through only whole numbers).
    func integer(_ name: String) -> Int? {
        switch values[name] {
        case .int(let number)?: number
        case .double(let number)?: Int(exactly: number)
        default: nil
        }
    }

    /// The session named by `name` (`session` unless an action has an argument of that name), else the default one.
    func session(_ name: String = "session") -> String { string(name) ?? ControlClient.defaultSession }

    /// The arguments other than `excluded`, as a JSON object.
    func object(excluding excluded: Set<String>) -> JSONValue {
        .object(values.filter { !excluded.contains($0.key) })
    }

    private static func value(_ value: JSONValue, isOfType type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
             ("array", .array), ("object", .object), ("null", .null): true
        // A whole number written with a point (3.0) is an integer in JSON Schema.
        case ("integer", .double(let number)): number.rounded() == number
        default: false
        }
    }

    private static func article(_ type: String) -> String {
        type.first.map { "aeio".contains($0) } == true ? "an" : "a"
    }
}
