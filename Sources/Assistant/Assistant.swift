public import Foundation
public import Services
import HTTPTypes

/// Model #3: an assistant chat whose replies stream in token by token over server-sent events, with a WebSocket
/// presence channel that says whether the assistant is online and typing.
///
/// `send` adds the user's message and starts the reply as the Model's own task, so the action returns at once and
/// the reply grows as its events arrive: a test reads the partial text at any instant of the session's clock. A
/// reply cut off mid-stream keeps what arrived and says so; `retry` asks again. `stop` ends the reply being
/// streamed, which closes its stream. From start-up the Model keeps the presence channel open: the server says when
/// the assistant is online and typing, and the Model tells it when a message was sent.
public actor Assistant: Model {
    public static let name = "Assistant"
    public static let actionNames = ["send", "stop", "retry"]

    /// The chat service's API root.
    public static let apiBase = URL(string: "https://assistant.example/v1")!

    /// What a client may ask of the chat.
    public enum Action: Decodable, Sendable {
        /// Send a message; the assistant's reply streams in after it.
        case send(text: String)
        /// Stop the reply being streamed; what arrived is kept.
        case stop
        /// Ask again for the last reply that failed, was cut off or was stopped; nothing to retry does nothing.
        case retry
    }

    private let services: ModelServices
    private let api: AssistantAPI
    private var reply: Task<Void, Never>?
    private var presence: WebSocketConnection?
    public private(set) var state = AssistantState()

    public init(services: ModelServices) {
        self.services = services
        self.api = AssistantAPI(base: Self.apiBase)
    }

    /// Follows the presence channel until the server closes it.
    public func run() async {
        let connection: WebSocketConnection
        do {
            connection = try await services.network.webSocket(api.presence())
        } catch {
            state.presenceError = "Presence is unavailable: \(error)"
            return
        }
        presence = connection
        do {
            for try await message in connection.messages {
                guard case .text(let text) = message,
                      let update = try? JSONDecoder.services.decode(AssistantAPI.PresenceUpdate.self, from: Data(text.utf8)) else { continue }
                switch update.type {
                case "online": state.assistantOnline = update.online ?? true
                case "typing": state.assistantTyping = update.typing ?? false
                default: continue
                }
            }
            if let close = await connection.serverClose(), close.code != 1000 {
                state.presenceError = "Presence closed (\(close.code)\(close.reason.isEmpty ? "" : ": \(close.reason)"))."
            }
        } catch {
            state.presenceError = "Presence was cut off: \(error)"
        }
        presence = nil
        state.assistantOnline = false
        state.assistantTyping = false
    }

    public func perform(_ action: Action) async {
        switch action {
        case .send(let text):
            let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else {
                state.error = "Write a message first."
                return
            }
            guard reply == nil else {
                state.error = "Wait for the reply, or stop it, before sending another message."
                return
            }
            state.messages.append(ChatMessage(role: .user, text: text))
            startReply()
        case .stop:
            reply?.cancel()
        case .retry:
            // Nothing failed (or a reply is streaming): there is nothing to ask again, as a greyed-out button.
            guard reply == nil, let last = state.messages.last, last.role == .assistant, last.status != .complete else { return }
            state.messages.removeLast()
            startReply()
        }
    }

    /// Asks for the reply to the conversation so far and streams it into a new assistant message.
    private func startReply() {
        state.error = nil
        let conversation = state.messages
        state.messages.append(ChatMessage(role: .assistant, text: "", status: .streaming))
        state.isReplying = true
        reply = Task {
            await streamReply(to: conversation)
            reply = nil
            state.isReplying = false
        }
    }

    private func streamReply(to conversation: [ChatMessage]) async {
        // The presence channel hears of it first; a channel that is down does not hold the reply back.
        try? await presence?.send(.text(#"{"type":"sent"}"#))
        do {
            let stream = try await services.network.stream(api.reply(to: conversation))
            guard (200..<300).contains(stream.head.status.code) else {
                var body = Data()
                for try await chunk in stream.body { body.append(chunk) }
                let message = (try? JSONDecoder.services.decode(AssistantAPI.ErrorBody.self, from: body))?.message
                fail("The assistant answered \(stream.head.status.codeAndReason)" + (message.map { ": \($0)" } ?? "."))
                return
            }
            for try await event in stream.events {
                switch event.event ?? "message" {
                case "token":
                    guard let token = try? JSONDecoder.services.decode(AssistantAPI.Token.self, from: Data(event.data.utf8)) else {
                        fail("The reply had an event that could not be read: \(event.data.prefix(80))")
                        return
                    }
                    state.messages[state.messages.count - 1].text += token.text
                case "done":
                    state.messages[state.messages.count - 1].status = .complete
                    return
                case "error":
                    let message = (try? JSONDecoder.services.decode(AssistantAPI.ErrorBody.self, from: Data(event.data.utf8)))?.message
                    fail("The assistant could not finish: \(message ?? event.data)")
                    return
                default:
                    continue
                }
            }
            fail("The reply ended before it was finished.")
        } catch .cancelled {
            state.messages[state.messages.count - 1].status = .stopped
        } catch {
            fail(error == .offline ? "You are offline; the reply will be here once you retry." : "The reply was cut off: \(error)")
        }
    }

    private func fail(_ message: String) {
        state.messages[state.messages.count - 1].status = .failed
        state.error = message
    }
}
