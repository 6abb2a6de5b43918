package import Fakes
import Foundation
import GraphQL
package import Services
import Synchronization

/// GraphQL over WebSocket, as `graphql-transport-ws` speaks it (Apollo, urql, graphql-ws): the client's
/// `connection_init` is acknowledged, each `subscribe` answered with its events as `next` messages at the offsets
/// the scenario gives (a query or mutation with one `next`), then `complete`; the client's `complete` withdraws what
/// is still to come. Each event is the subscription field's value, answered with exactly the subscription's selection.
extension GraphQLEndpoint: SocketAnswerer {
    /// One event of a subscription: the field's value (or the subscription's end) at an offset from the subscribe.
    package struct Event: Sendable, Hashable {
        package var offset: Duration
        /// The subscription field's value; nil for the end (`complete`).
        package var value: JSONValue?

        package init(offset: Duration, value: JSONValue?) {
            self.offset = offset
            self.value = value
        }
    }

    /// What one connection has been told: whether it said `connection_init`, and the subscriptions it has open.
    final class Conversation: Sendable {
        struct State {
            var initialised = false
            var open: Set<String> = []
        }

        let state = Mutex(State())
    }

    package func makeConversation() -> any Sendable { Conversation() }

    package func reply(to message: WebSocketMessage, conversation: any Sendable, state: any Sendable) async -> SocketReply {
        guard let conversation = conversation as? Conversation, let session = state as? GraphQLSessionData else { return SocketReply() }
        guard case .text(let text) = message, case .object(let fields)? = try? JSONValue(json: Data(text.utf8)),
              case .string(let type)? = fields["type"] else {
            return SocketReply(close: WebSocketClose(code: 4400, reason: "Invalid message received"))
        }
        let id: String? = if case .string(let id)? = fields["id"] { id } else { nil }
        switch type {
        case "connection_init":
            let again = conversation.state.withLock { state in
                defer { state.initialised = true }
                return state.initialised
            }
            if again { return SocketReply(close: WebSocketClose(code: 4429, reason: "Too many initialisation requests")) }
            return SocketReply(sends: [.init(Self.message(["type": .string("connection_ack")]))])
        case "ping":
            return SocketReply(sends: [.init(Self.message(["type": .string("pong")]))])
        case "pong":
            return SocketReply()
        case "complete":
            guard let id else { return SocketReply(close: WebSocketClose(code: 4400, reason: "Invalid message received")) }
            conversation.state.withLock { _ = $0.open.remove(id) }
            return SocketReply(withdraw: id)
        case "subscribe":
            guard let id, case .object(let payload)? = fields["payload"] else {
                return SocketReply(close: WebSocketClose(code: 4400, reason: "Invalid message received"))
            }
            let (initialised, opened) = conversation.state.withLock { state in (state.initialised, state.open.insert(id).inserted) }
            guard initialised else { return SocketReply(close: WebSocketClose(code: 4401, reason: "Unauthorized")) }
            guard opened else { return SocketReply(close: WebSocketClose(code: 4409, reason: "Subscriber for \(id) already exists")) }
            let (sends, ends) = await subscribe(id: id, payload: payload, session: session)
            // A subscription that ends is no longer open: its id may be used again.
            if ends { conversation.state.withLock { _ = $0.open.remove(id) } }
            return SocketReply(sends: sends)
        default:
            return SocketReply(close: WebSocketClose(code: 4400, reason: "Invalid message received"))
        }
    }

    /// The messages that answer `subscribe` `id`: `error` for a document that does not validate; one `next` and
    /// `complete` for a query or mutation; each scripted event of a subscription as a `next`, then `complete` if the
    /// script ends it; with whether they end it with `complete` (its id may then be used again).
    private func subscribe(id: String, payload: [String: JSONValue], session: GraphQLSessionData) async -> (sends: [SocketReply.Send], ends: Bool) {
        func send(_ fields: [String: JSONValue], after offset: Duration = .zero) -> SocketReply.Send {
            var fields = fields
            fields["id"] = .string(id)
            return .init(offset: offset, Self.message(fields), tag: id)
        }
        guard case .string(let query)? = payload["query"] else {
            return ([send(["type": .string("error"), "payload": .array([.object(["message": .string("The payload has no 'query'.")])])])], false)
        }
        let name: String? = if case .string(let name)? = payload["operationName"] { name } else { nil }
        let variables: [String: Map] = if case .object(let given)? = payload["variables"] { given.mapValues(GraphQLData.map(of:)) } else { [:] }
        let document: Document
        do {
            document = try parse(source: Source(body: query, name: "GraphQL request"))
        } catch {
            return ([send(["type": .string("error"), "payload": Self.errors([GraphQLError(error)])])], false)
        }
        let invalid = validate(schema: schema, ast: document)
        guard invalid.isEmpty else { return ([send(["type": .string("error"), "payload": Self.errors(invalid)])], false) }
        let operation = document.definitions.compactMap { $0 as? OperationDefinition }.first { name == nil || $0.name?.value == name }
        guard let operation, operation.operation == .subscription, let subscription = schema.subscriptionType else {
            // A query or mutation over the socket: its one result, then complete.
            let result = await execute(document, root: GraphQLData.Root(), variables: variables, name: name, session: session)
            return ([send(["type": .string("next"), "payload": result]), send(["type": .string("complete")])], true)
        }
        guard let field = operation.selectionSet.selections.first as? Field else {
            return ([send(["type": .string("error"), "payload": Self.errors([GraphQLError(message: "A subscription selects one field, written out (not through a fragment).")])])], false)
        }
        var sends: [SocketReply.Send] = []
        for event in subscriptions[field.name.value] ?? [] {
            guard let value = event.value else {
                sends.append(send(["type": .string("complete")], after: event.offset))
                return (sends, true)
            }
            let root = GraphQLData.Object(type: subscription.name, fields: [field.name.value: value])
            let result = await execute(document, root: root, variables: variables, name: name, session: session)
            sends.append(send(["type": .string("next"), "payload": result], after: event.offset))
        }
        return (sends, false)
    }

    /// `document` executed from `root`: the result as JSON.
    private func execute(_ document: Document, root: any Sendable, variables: [String: Map], name: String?, session: GraphQLSessionData) async -> JSONValue {
        let result: GraphQLResult
        do {
            result = try await GraphQL.execute(schema: schema, documentAST: document, rootValue: root, context: session,
                                               variableValues: variables, operationName: name)
        } catch {
            result = GraphQLResult(errors: [GraphQLError(error)])
        }
        return (try? JSONValue(json: result.orderedJSON)) ?? .null
    }

    private static func errors(_ errors: [GraphQLError]) -> JSONValue {
        (try? JSONValue(json: GraphQLResult(errors: errors).orderedJSON)).flatMap { value in
            if case .object(let fields) = value { fields["errors"] } else { nil }
        } ?? .array([])
    }

    private static func message(_ fields: [String: JSONValue]) -> WebSocketMessage {
        .text(String(decoding: JSONValue.object(fields).jsonData, as: UTF8.self))
    }
}
