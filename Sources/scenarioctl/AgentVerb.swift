import ControlAPI
import Foundation
import MCP
import ScenarioClient
import ScenarioExplore
import Services

/// One of the daemon's verbs as an MCP tool: sessions, state, journal, clock, network, store, history, saving.
/// Each calls the control API through ``ControlClient`` and nothing else, so an agent can do exactly what
/// `scenarioctl` can, and reach no file the daemon does not serve.
struct AgentVerb: Sendable {
    let name: String
    let description: String
    let schema: MCP.Value
    let annotations: Tool.Annotations
    /// Opening or closing a session, or saving a scenario, changes the resource list.
    var changesResources = false
    let run: @Sendable (ControlClient, ToolArguments) async throws -> JSONValue

    var tool: Tool { Tool(name: name, description: description, inputSchema: schema, annotations: annotations) }

    /// An object schema of these properties (name → JSON Schema), some required, no others allowed.
    static func schema(_ properties: [String: MCP.Value], required: [String] = []) -> MCP.Value {
        .object([
            "type": "object", "properties": .object(properties),
            "required": .array(required.map { .string($0) }), "additionalProperties": false,
        ])
    }

    static func property(_ type: String, _ description: String) -> MCP.Value {
        .object(["type": .string(type), "description": .string(description)])
    }

    /// open_session's `endpoint`, its fields checked here as the daemon checks them (the typed client would drop an
    /// unknown one).
    static func endpoint(_ value: JSONValue) throws -> SessionEndpointRequest {
        guard case .object(let fields) = value else {
            throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument 'endpoint' must be an object.")
        }
        if let field = fields.keys.sorted().first(where: { !["port", "token", "origin"].contains($0) }) {
            throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument 'endpoint' has the unknown field '\(field)'; it takes port, token and origin.")
        }
        do {
            return try JSONDecoder.services.decode(SessionEndpointRequest.self, from: value.jsonData)
        } catch {
            throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument 'endpoint' must have port an integer, token a boolean and origin a string: \(error)")
        }
    }

    static let session = property("string", "The session (open_session's id). Default: the daemon's default session, when it was started with a scenario.")

    static let all: [AgentVerb] = [
        AgentVerb(name: "list_scenarios", description: "The scenarios the daemon serves: name, Model, description, and problems of those that do not load.",
                  schema: schema([:]), annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, _ in
            .object(["scenarios": .encoding(try await client.scenarios())])
        },
        AgentVerb(name: "list_models", description: "The Models the daemon hosts, each with its actions and their arguments (name, JSON type, required) and its key-value keys.",
                  schema: schema([:]), annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, _ in
            .object(["models": .encoding(try await client.models())])
        },
        AgentVerb(name: "open_session", description: "Open an isolated session of a scenario: its own Model, clock, network and store. Returns the session (its id names it in every other tool) and the Model's first state.",
                  schema: schema([
                      "scenario": property("string", "The scenario to run (list_scenarios names them)."),
                      "id": property("string", "The session's id. Default: one the daemon makes up."),
                      "overrides": property("object", "Changes to the scenario for this session only, as in POST /v1/sessions: clock, keyValue, random, network (routes by name)."),
                      "endpoint": property("object", "Give the session its own HTTP listener, for an app the daemon does not host (a web page a browser tool opens): {\"port\": 0} for a free loopback port with a token, {} for a Unix socket; optionally \"origin\". The session's endpoint says its url, token and proxy."),
                  ], required: ["scenario"]),
                  annotations: .init(destructiveHint: false, idempotentHint: false, openWorldHint: false), changesResources: true) { client, arguments in
            let endpoint = try arguments["endpoint"].map(AgentVerb.endpoint)
            let session = try await client.createSession(scenario: arguments.string("scenario") ?? "", id: arguments.string("id"), overrides: arguments["overrides"],
                                                         endpoint: endpoint)
            return .object(["session": .encoding(session), "state": try await client.state(session: session.id)])
        },
        AgentVerb(name: "close_session", description: "Close a session: its Model stops and its state is gone.",
                  schema: schema(["session": property("string", "The session to close.")], required: ["session"]),
                  annotations: .init(destructiveHint: true, idempotentHint: true, openWorldHint: false), changesResources: true) { client, arguments in
            let id = arguments.session()
            try await client.deleteSession(id)
            return .object(["closed": .string(id)])
        },
        AgentVerb(name: "list_sessions", description: "The open sessions: id, scenario, Model, clock, requests, and work of the Model the session could not see (escapes).",
                  schema: schema([:]), annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, _ in
            .object(["sessions": .encoding(try await client.sessions())])
        },
        AgentVerb(name: "read_state", description: "The Model's state in a session, once its work at the current instant has settled.",
                  schema: schema(["session": session]), annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, arguments in
            let id = arguments.session()
            return .object(["session": .string(id), "state": try await client.state(session: id)])
        },
        AgentVerb(name: "read_journal", description: "The session's network journal: every request the Model sent, the route that answered it or, for a request no route matched, its near misses (the closest routes and the first field that differed).",
                  schema: schema(["session": session, "unmatchedOnly": property("boolean", "Only the requests no route matched. Default: false.")]),
                  annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, arguments in
            let id = arguments.session()
            let journal = arguments["unmatchedOnly"] == .bool(true) ? try await client.unmatchedRequests(session: id) : try await client.journal(session: id)
            return .encoding(journal)
        },
        AgentVerb(name: "move_clock", description: "Move the session's virtual clock: forward by a duration (timers fire, delayed responses arrive, in order) or to an instant. Returns the new time and the state there.",
                  schema: schema([
                      "session": session,
                      "by": property("string", "A duration to advance by: 500ms, 2s, 15m, 1h30m."),
                      "to": property("string", "An instant to set the clock to, ISO 8601: 2026-11-01T09:00:00Z."),
                  ]), annotations: .init(destructiveHint: false, idempotentHint: false, openWorldHint: false)) { client, arguments in
            let id = arguments.session()
            let now: Date
            switch (arguments.string("by"), arguments.string("to")) {
            case (let by?, nil): now = try await client.advanceClock(by: by, session: id)
            case (nil, let to?):
                guard let instant = InstantText.parse(to) else {
                    throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument 'to': \(InstantText.problem(to) ?? "'\(to)' is not an instant"); write one such as 2026-11-01T09:00:00Z.")
                }
                now = try await client.setClock(to: instant, session: id)
            default: throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "give exactly one of 'by' (a duration such as 30s) and 'to' (an instant).")
            }
            return .object(["session": .string(id), "now": .string(InstantText.format(now)), "state": try await client.state(session: id)])
        },
        AgentVerb(name: "set_network_conditions", description: "The weather of the session's whole network: offline, a transport fault on every request, or extra delay. Omitted fields are cleared.",
                  schema: schema([
                      "session": session,
                      "offline": property("boolean", "Every request fails as offline."),
                      "fault": property("string", "Every request fails with this transport error: timeout, connectionReset, connectionRefused, offline, cancelled."),
                      "delay": property("string", "Extra delay on every answer: 2s."),
                  ]), annotations: .init(destructiveHint: false, idempotentHint: true, openWorldHint: false)) { client, arguments in
            let conditions = NetworkConditionsBody(offline: arguments["offline"] == .bool(true) ? true : nil, fault: arguments.string("fault"), delay: arguments.string("delay"))
            return .encoding(try await client.setNetworkConditions(conditions, session: arguments.session()))
        },
        AgentVerb(name: "list_streams", description: "The session's open streams (server-sent events, chunked bodies) and WebSockets: each one's number, route, how many chunks or messages the Model has read, how many are to come and when the next is due.",
                  schema: schema(["session": session]), annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, arguments in
            .object(["streams": .encoding(try await client.streams(session: arguments.session()))])
        },
        AgentVerb(name: "push_to_stream", description: "Play the server of an open stream: send an event (data, with event and id) or raw text (a WebSocket's text message) now. Returns the Model's state once it has read it.",
                  schema: schema([
                      "session": session,
                      "stream": property("integer", "The stream's number (list_streams)."),
                      "data": property("string", "The event's data."),
                      "event": property("string", "The event's type."),
                      "id": property("string", "The event's id."),
                      "text": property("string", "Raw text sent exactly as written, instead of an event; for a WebSocket, the message."),
                  ], required: ["stream"]),
                  annotations: .init(destructiveHint: false, idempotentHint: false, openWorldHint: false)) { client, arguments in
            let push = PushToStreamRequest(data: arguments.string("data"), event: arguments.string("event"), id: arguments.string("id"),
                                           text: arguments.string("text"))
            return try await client.pushToStream(arguments.integer("stream") ?? 0, push, session: arguments.session())
        },
        AgentVerb(name: "close_stream", description: "Play the server of an open stream: close it (a WebSocket with code and reason), or break it off with a transport fault. Returns the Model's state once it has seen the end.",
                  schema: schema([
                      "session": session,
                      "stream": property("integer", "The stream's number (list_streams)."),
                      "fault": property("string", "Break it off with this transport error instead: timeout, connectionReset, connectionRefused, offline, cancelled."),
                      "code": property("integer", "A WebSocket's close code; default 1000."),
                      "reason": property("string", "A WebSocket's close reason."),
                  ], required: ["stream"]),
                  annotations: .init(destructiveHint: true, idempotentHint: false, openWorldHint: false)) { client, arguments in
            let close = CloseStreamRequest(fault: arguments.string("fault"), code: arguments.integer("code"), reason: arguments.string("reason"))
            return try await client.closeStream(arguments.integer("stream") ?? 0, close, session: arguments.session())
        },
        // Never waits: a delayed answer waits for a clock move, which the agent makes only once the call returns.
        AgentVerb(name: "send_request", description: "Send one request through the session's network from outside, exactly as its Model's network service would (routes, sequences, network conditions, faults), and return the answer (status, headers, body) or the transport error, with the request's journal entry: the route that answered, or the near misses. The Model is not told. Never waits: an answer that waits on the session's clock comes back pending with its sequence; move_clock, then read_sent_request.",
                  schema: schema([
                      "session": session,
                      "method": property("string", "The HTTP method. Default: GET."),
                      "url": property("string", "The absolute http or https URL, query included."),
                      "headers": .object(["type": "array", "items": .object(["type": "string"]), "description": "Header fields as 'Name: value' lines."]),
                      "body": property("string", "The body as text."),
                  ], required: ["url"]), annotations: .init(destructiveHint: false, idempotentHint: false, openWorldHint: false)) { client, arguments in
            var headers: [String]?
            if case .array(let lines)? = arguments["headers"] {
                headers = try lines.map { line in
                    guard case .string(let text) = line else {
                        throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument 'headers': each header is a string such as 'Accept: application/json'.")
                    }
                    return text
                }
            }
            let request = SendRequestBody(method: arguments.string("method"), url: arguments.string("url") ?? "", headers: headers,
                                          body: arguments.string("body"), wait: false)
            return .encoding(try await client.sendRequest(request, session: arguments.session()))
        },
        AgentVerb(name: "read_sent_request", description: "The answer of a request send_request returned pending, once a clock move has delivered it (else still pending).",
                  schema: schema(["session": session, "sequence": property("integer", "The request's sequence, as send_request returned it.")], required: ["sequence"]),
                  annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, arguments in
            .encoding(try await client.sentRequest(arguments.integer("sequence") ?? 0, session: arguments.session()))
        },
        // The walks run in the daemon (POST /v1/explorations), at its engine's speed; the call returns with the report.
        AgentVerb(name: "explore", description: "Explore a scenario for bugs: the daemon runs seeded walks of random steps (the Model's actions with drawn arguments, clock moves, network weather), checking the scenario's properties (its properties.yaml) and the built-in ones (no escape, no server error, replay identical) after every step. Returns the report: steps run, actions and routes reached, and for a broken property the minimal walk that breaks it, step by step. The same seed gives the same report.",
                  schema: schema([
                      "scenario": property("string", "The scenario to explore (list_scenarios names them)."),
                      "walks": property("integer", "Walks to run. Default: 100."),
                      "steps": property("integer", "Steps per walk. Default: 20."),
                      "seed": property("integer", "The seed, 0 or more: the same seed walks the same steps. Default: 1."),
                  ], required: ["scenario"]), annotations: .init(readOnlyHint: true, idempotentHint: true, openWorldHint: false)) { client, arguments in
            let seed = arguments.integer("seed") ?? 1
            guard seed >= 0 else {
                throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "argument 'seed' is \(seed); a seed is 0 or more.")
            }
            let options = ExploreOptions(walks: arguments.integer("walks") ?? 100, steps: arguments.integer("steps") ?? 20, seed: UInt64(seed), parallelism: 2)
            do {
                let report = try await client.explore(arguments.string("scenario") ?? "", options: options)
                return .object(["report": .encoding(report), "text": .string(report.text)])
            } catch let error as ExploreError {
                throw AgentTools.Failure(code: "explorationRefused", message: error.description)
            }
        },
        AgentVerb(name: "edit_store", description: "Set or remove a key of the session's key-value store, as if the Model's store held it.",
                  schema: schema([
                      "session": session,
                      "key": property("string", "The key (list_models names the keys each Model documents)."),
                      "value": .object(["description": "The JSON value to store. Leave it out with remove: true."]),
                      "remove": property("boolean", "Remove the key instead of setting it."),
                  ], required: ["key"]), annotations: .init(destructiveHint: true, idempotentHint: true, openWorldHint: false)) { client, arguments in
            let id = arguments.session()
            let key = arguments.string("key") ?? ""
            switch (arguments["value"], arguments["remove"] == .bool(true)) {
            case (nil, true):
                try await client.removeKeyValue(key, session: id)
                return .object(["session": .string(id), "removed": .string(key), "state": try await client.state(session: id)])
            case (let value?, false):
                let stored = try await client.setKeyValue(key, to: value, session: id)
                return .object(["session": .string(id), "key": .string(key), "value": stored, "state": try await client.state(session: id)])
            default:
                throw AgentTools.Failure(code: APIErrorCode.invalidArguments.rawValue, message: "give 'value' to set the key, or 'remove': true to remove it, not both and not neither.")
            }
        },
        AgentVerb(name: "read_history", description: "The session's steps so far (actions, clock moves, edits), each with its number for rewind.",
                  schema: schema(["session": session]), annotations: .init(readOnlyHint: true, openWorldHint: false)) { client, arguments in
            .encoding(try await client.history(session: arguments.session()))
        },
        AgentVerb(name: "rewind", description: "Go back to the state after a step of the session's history (read_history numbers them; 0 is the start). Returns the state there.",
                  schema: schema(["session": session, "step": property("integer", "The step to go back to.")], required: ["step"]),
                  annotations: .init(destructiveHint: true, idempotentHint: true, openWorldHint: false)) { client, arguments in
            let id = arguments.session()
            return .object(["session": .string(id), "state": try await client.rewind(to: arguments.integer("step") ?? 0, session: id)])
        },
        AgentVerb(name: "save_scenario", description: "Save the session as a new scenario that extends its own and starts where the session is now; the daemon writes it beside its scenarios.",
                  schema: schema([
                      "session": session,
                      "name": property("string", "The new scenario's name."),
                      "description": property("string", "Its description. Default: where it was saved from."),
                  ], required: ["name"]), annotations: .init(destructiveHint: false, idempotentHint: false, openWorldHint: false),
                  changesResources: true) { client, arguments in
            .encoding(try await client.saveSession(as: arguments.string("name") ?? "", description: arguments.string("description"), session: arguments.session()))
        },
    ]
}
