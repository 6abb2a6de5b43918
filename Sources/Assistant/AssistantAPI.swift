import Foundation
import HTTPTypes
import Services

/// The chat service's endpoint: `POST …/replies` with the conversation, answered with server-sent events (`token`
/// with `{"text": …}`, then `done`; or `error` with `{"message": …}`).
struct AssistantAPI {
    struct Token: Decodable { var text: String }
    struct ErrorBody: Decodable { var message: String }
    private struct Conversation: Encodable { var messages: [Line] }
    private struct Line: Encodable { var role: String; var text: String }

    let base: URL

    func reply(to conversation: [ChatMessage]) -> NetworkRequest {
        let body = Conversation(messages: conversation.map { Line(role: $0.role.rawValue, text: $0.text) })
        // Encoding these fixed structs of strings cannot fail.
        let data = (try? JSONEncoder.services.encode(body)) ?? Data()
        return NetworkRequest(method: .post, url: base.appendingPathComponent("replies"),
                              headerFields: [.accept: "text/event-stream", .contentType: "application/json"], body: data)
    }
}
