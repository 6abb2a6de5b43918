import ScenarioClient
import MCP
import Services

/// One action of a Model as an MCP tool, named `MODEL_ACTION` with the Model's name in lower case
/// (`feedreader_setIsRead`): its input schema is the action's arguments from `GET /v1/models` (names, JSON types,
/// which are required) plus the session to act in, so it is the Model's own declaration.
struct ActionTool: Sendable {
    let model: String
    let action: ActionDescription

    /// `feedreader_setIsRead`: MCP tool names allow letters, digits, `_` and `-`; other characters become `-`.
    var name: String {
        let allowed = { (character: Character) in character.isASCII && (character.isLetter || character.isNumber || character == "-") }
        return String((model.lowercased() + "_" + action.name).map { allowed($0) || $0 == "_" ? $0 : "-" }.prefix(128))
    }

    /// `session`, unless the action has an argument of that name; then `_session`.
    var sessionArgument: String { action.arguments.contains { $0.name == "session" } ? "_session" : "session" }

    var schema: MCP.Value {
        var properties = Dictionary(uniqueKeysWithValues: action.arguments.map { argument in
            (argument.name, MCP.Value.object(["type": .string(argument.type)]))
        })
        properties[sessionArgument] = AgentVerb.session
        return AgentVerb.schema(properties, required: action.arguments.filter(\.required).map(\.name))
    }

    var tool: Tool {
        let arguments = action.arguments.map { "\($0.name): \($0.type)\($0.required ? "" : "?")" }.joined(separator: ", ")
        return Tool(name: name,
                    description: "Perform \(model)'s action '\(action.name)'\(arguments.isEmpty ? "" : " (\(arguments))") in a session whose scenario runs \(model); returns the Model's state once the action's work has settled.",
                    inputSchema: schema, annotations: .init(destructiveHint: false, idempotentHint: false, openWorldHint: false))
    }

    func perform(on client: ControlClient, with arguments: ToolArguments) async throws -> JSONValue {
        let session = arguments.session(sessionArgument)
        let state = try await client.perform(action.name, arguments: arguments.object(excluding: [sessionArgument]), session: session)
        return .object(["session": .string(session), "action": .string(action.name), "state": state])
    }
}
