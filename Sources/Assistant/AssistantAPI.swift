import Foundation
import HTTPTypes
import Services

/// The chat service's endpoint: `POST …/replies` with the conversation, answered with server-sent events (`token`
/// with `{"text": …}`, then `done`; or `error` with `{"message": …}`).
struct AssistantAPI {
    struct Token: Decodable { var text: String }
    struct ErrorBody: Decodable { var message: String }
    /// A presence channel message: `{"type": "online", "online": true}` or `{"type": "typing", "typing": true}`.
    struct PresenceUpdate: Decodable { var type: String; var online: Bool?; var typing: Bool? }
    private struct Conversation: Encodable { var messages: [Line] }
    private struct Line: Encodable { var role: String; var text: String }

    let base: URL

    /// The presence channel: `wss://…/presence`.
    func presence() -> NetworkRequest {
        var components = URLComponents(url: base.appendingPathComponent("presence"), resolvingAgainstBaseURL: false)
        components?.scheme = "wss"
        return NetworkRequest(method: .get, url: components?.url ?? base)
    }

    func reply(to conversation: [ChatMessage]) -> NetworkRequest {
        let body = Conversation(messages: conversation.map { Line(role: $0.role.rawValue, text: $0.text) })
        // Encoding these fixed structs of strings cannot fail.
        let data = (try? JSONEncoder.services.encode(body)) ?? Data()
        return NetworkRequest(method: .post, url: base.appendingPathComponent("replies"),
                              headerFields: [.accept: "text/event-stream", .contentType: "application/json"], body: data)
    }
}
