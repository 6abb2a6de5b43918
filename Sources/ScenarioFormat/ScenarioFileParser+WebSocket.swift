import Fakes
import Foundation
import Services
import Yams

/// A WebSocket route: `response.webSocket`, the server's side of a conversation on the session's clock.
extension ScenarioFileParser {
    static let webSocketKeys = ["onConnect", "replies", "close"]
    static let webSocketMessageKeys = ["at", "text", "json", "binary"]
    static let webSocketReplyKeys = ["when", "send", "once"]
    /// A reply's `when` matches the Model's message as a request body is matched.
    static let webSocketWhenKeys = ["bodyText", "body", "bodyFields"]

    mutating func parseWebSocket(_ node: Node, at path: String) -> WebSocketScript? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.webSocketKeys) else { return nil }
        let problemsBefore = reader.problems.count
        var script = WebSocketScript()
        if let list = keys["onConnect"] {
            script.onConnect = messages(list, at: "\(path).onConnect")
        }
        if let list = keys["replies"] {
            for (index, item) in (reader.sequence(list, at: "\(path).replies", of: "replies") ?? []).enumerated() {
                let place = "\(path).replies[\(index)]"
                guard let reply = reader.mapping(item, at: place, allowed: Self.webSocketReplyKeys, required: ["when", "send"]),
                      let whenNode = reply["when"], let sendNode = reply["send"] else { continue }
                guard let when = parseRequest(whenNode, at: "\(place).when", allowed: Self.webSocketWhenKeys) else { continue }
                let once = reply["once"].flatMap { reader.bool($0, at: "\(place).once") } ?? false
                script.replies.append(WebSocketScript.Reply(when: when, send: messages(sendNode, at: "\(place).send"), once: once))
            }
        }
        if let closeNode = keys["close"],
           let close = reader.mapping(closeNode, at: "\(path).close", allowed: ["at", "code", "reason"], required: ["at"]) {
            let at = close["at"].flatMap { offset($0, at: "\(path).close.at") } ?? .zero
            // 1000–4999 are the codes a close frame may carry (RFC 6455 §7.4); 1005 and 1006 are never sent.
            let code = close["code"].flatMap { reader.int($0, at: "\(path).close.code", in: 1000...4999) } ?? 1000
            if [1005, 1006, 1015].contains(code), let codeNode = close["code"] {
                reader.report("\(path).close.code is \(code), which a close frame never carries; use 1000 (normal), 1001 (going away), 1011 (server error) or 4000–4999 (the application's own).", at: codeNode)
            }
            let reason = close["reason"].flatMap { reader.text($0, at: "\(path).close.reason") } ?? ""
            if reason.utf8.count > 123, let reasonNode = close["reason"] {
                reader.report("\(path).close.reason is \(reason.utf8.count) bytes; a close frame holds at most 123.", at: reasonNode)
            }
            script.close = WebSocketScript.Close(offset: at, frame: WebSocketClose(code: code, reason: reason))
        }
        guard reader.problems.count == problemsBefore else { return nil }
        return script
    }

    /// Messages at offsets from their cue: `{at: +100ms, text: …}`, `{json: {…}}` (sent as compact JSON text) or
    /// `{binary: BASE64}`; an offset not written is the previous message's.
    private mutating func messages(_ node: Node, at path: String) -> [WebSocketScript.Send] {
        var sends: [WebSocketScript.Send] = []
        for (index, item) in (reader.sequence(node, at: path, of: "messages") ?? []).enumerated() {
            let place = "\(path)[\(index)]"
            guard let keys = reader.mapping(item, at: place, allowed: Self.webSocketMessageKeys) else { continue }
            let at = messageOffset(keys["at"], after: sends.last?.offset ?? .zero, at: place)
            let bodies = ["text", "json", "binary"].filter { keys[$0] != nil }
            guard bodies.count == 1 else {
                reader.report("\(place) needs one of 'text', 'json' or 'binary', got \(bodies.isEmpty ? "none" : bodies.map { "'\($0)'" }.joined(separator: " and ")).", at: item)
                continue
            }
            switch bodies[0] {
            case "text":
                if let text = reader.text(keys["text"]!, at: "\(place).text") { sends.append(.init(offset: at, message: .text(text))) }
            case "json":
                sends.append(.init(offset: at, message: .text(String(decoding: reader.json(keys["json"]!).jsonData, as: UTF8.self))))
            default:
                guard let text = reader.string(keys["binary"]!, at: "\(place).binary") else { continue }
                guard let data = Data(base64Encoded: text) else {
                    reader.report("\(place).binary is not base64; write the message's bytes in base64.", at: keys["binary"])
                    continue
                }
                sends.append(.init(offset: at, message: .binary(data)))
            }
        }
        return sends
    }
}
