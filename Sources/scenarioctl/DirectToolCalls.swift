import Foundation
import MCP

/// `tools/call` requests answered by scenarioctl itself, as they come off standard input, rather than by the SDK's
/// `Server`: the same request and response types, without the SDK's conversion of every result.
///
/// The SDK (swift-sdk 0.12.1) answers a request by encoding the handler's result to JSON and decoding it again into
/// its `Value`, whose decoder tries each JSON type in turn and matches every string against a data-URL `Regex` it
/// builds and compiles anew for each string (modelcontextprotocol/swift-sdk#277): about 60 % of scenarioctl's CPU
/// per action tool call, more with larger states, and a state string that looks like a data URL is rewritten. A
/// tool call is one request and one response, so answering it here costs nothing the SDK gave: the other methods
/// (initialize, lists, resources, subscriptions, pings) stay the SDK's. A `tools/call` that does not decode goes
/// to the SDK too, which answers with its error.
struct DirectToolCalls: Sendable {
    let tools: AgentTools

    /// Only what is needed to tell a tool call from any other message.
    private struct Envelope: Decodable {
        let method: String?
        let id: ID?
    }

    /// The tool call `line` holds, or nil for any other message.
    func request(in line: Data) -> Request<CallTool>? {
        let decoder = JSONDecoder()
        guard let envelope = try? decoder.decode(Envelope.self, from: line), envelope.method == CallTool.name, envelope.id != nil else {
            return nil
        }
        return try? decoder.decode(Request<CallTool>.self, from: line)
    }

    /// The response to `request`, encoded as one JSON-RPC message.
    func answer(_ request: Request<CallTool>) async -> Data {
        let response: Response<CallTool>
        do {
            response = Response(id: request.id, result: try await tools.call(request.params.name, arguments: request.params.arguments ?? [:]))
        } catch let error as MCPError {
            response = Response(id: request.id, error: error)
        } catch {
            response = Response(id: request.id, error: .internalError("\(error)"))
        }
        // The SDK's own types encode unless a result holds a number JSON cannot write (NaN, infinity): then the
        // client still hears about its request.
        if let data = try? JSONEncoder().encode(response) { return data }
        let refusal = Response<CallTool>(id: request.id, error: .internalError("the result of tool '\(request.params.name)' cannot be written as JSON"))
        return (try? JSONEncoder().encode(refusal)) ?? Data()
    }
}
