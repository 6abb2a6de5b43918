import ArgumentParser
import Foundation
import MCP

struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on stdin and stdout: the daemon's sessions and each Model's actions as tools for a coding agent.",
        discussion: """
        An MCP client (Claude Code, Cursor, the MCP SDKs) starts this command and talks to it over stdio; it talks to \
        the daemon at --socket. Tools: list_scenarios, list_models, open_session, close_session, list_sessions, \
        read_state, read_journal, move_clock, set_network_conditions, edit_store, read_history, rewind, save_scenario, \
        and MODEL_ACTION for each action of each Model (feedreader_setIsRead), with the action's arguments as its input \
        schema. Resources: scenariod://scenarios/NAME/scenario.yaml and scenariod://sessions/ID/state, with a \
        notification on each state change to a subscriber. Everything goes through the control API: the command \
        reads no file and opens no other socket. Add it to a client with \
        `claude mcp add scenariod -- scenarioctl mcp --socket PATH`.
        """)
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let client = options.client
        let server = Server(name: "scenariod", version: Scenarioctl.configuration.version,
                            instructions: "Run an app's Model in scenarios: open_session, then the MODEL_ACTION tools, move_clock and read_state; close_session when done.",
                            capabilities: .init(resources: .init(subscribe: true, listChanged: true), tools: .init(listChanged: false)))
        let resources = AgentResources(client: client)
        let tools = AgentTools(client: client) {
            try? await server.notify(ResourceListChangedNotification.message())
        }
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: try await Self.answering { try await tools.list() }) }
        // Tool calls are answered by the transport as it reads them (DirectToolCalls); one that does not decode there
        // comes here, and the SDK answers with its error.
        await server.withMethodHandler(CallTool.self) { call in try await tools.call(call.name, arguments: call.arguments ?? [:]) }
        await server.withMethodHandler(ListResources.self) { _ in .init(resources: try await Self.answering { try await resources.list() }) }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in .init(templates: AgentResources.templates) }
        await server.withMethodHandler(ReadResource.self) { read in .init(contents: try await resources.read(read.uri)) }
        await server.withMethodHandler(ResourceSubscribe.self) { subscription in
            try await resources.subscribe(subscription.uri) { uri in
                try? await server.notify(ResourceUpdatedNotification.message(.init(uri: uri)))
            }
            return .init()
        }
        await server.withMethodHandler(ResourceUnsubscribe.self) { subscription in
            await resources.unsubscribe(subscription.uri)
            return .init()
        }
        try await server.start(transport: StdioLineTransport(answering: DirectToolCalls(tools: tools)))
        await server.waitUntilCompleted()
    }

    /// A listing the daemon could not give (it is not running) as a protocol error that says how to start one.
    private static func answering<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw MCPError.internalError("\(error)")
        }
    }
}
