import Fakes
import Foundation
import HTTPTypes
import Services

/// How recorded exchanges become routes: one per distinct request, its answers in order, and for a read a write
/// changed, the write each answer came after.
extension RecordedScenario {
    struct RouteDraft {
        struct Key: Hashable {
            var method: String
            var url: String
            var query: [String: String]
            var body: JSONValue?
            var bodyText: String
            var headers: [String: String]

            /// `redact`: the pointers to leave out besides the secret fields; nil keeps everything.
            init(_ request: NetworkRequest, redact: [String]?) {
                method = request.head.method.rawValue
                let components = URLComponents(string: request.url)
                var bare = components
                bare?.query = nil
                url = bare?.string ?? request.url
                // A credential in the query (`?access_token=…`) is left out as in a body: the matcher takes any value.
                let items = (components?.queryItems ?? []).filter { redact == nil || !JSONValue.isSecretField($0.name) }
                query = Dictionary(items.map { ($0.name, $0.value ?? "") }) { _, last in last }
                // Only a JSON body can be matched; requests with other bodies share a route and its order.
                body = request.body.isEmpty ? nil : try? JSONValue(json: request.body)
                if let redact, let json = body { body = json.redactingSecrets(pointers: redact, replacement: nil).value }
                bodyText = body.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? ""
                headers = [:]
                if redact == nil {
                    for field in request.head.headerFields where ["authorization", "cookie"].contains(field.name.canonicalName) {
                        headers[field.name.rawName] = field.value
                    }
                }
            }
        }

        var key: Key
        var firstSequence: Int
        var answers: [Answer]
    }

    struct Answer: Equatable {
        var status: Int?
        var headers: [(String, String)]
        var body: Data
        var fault: TransportError?
        var stream: StreamScript?
        var conversation: RecordedConversation?
        var sequence: Int
        var path: String

        static func == (left: Answer, right: Answer) -> Bool {
            left.status == right.status && left.fault == right.fault && left.body == right.body && left.stream == right.stream
                && left.conversation == right.conversation
                && left.headers.map { "\($0.0): \($0.1)" } == right.headers.map { "\($0.0): \($0.1)" }
        }
    }

    func answer(_ exchange: RecordedExchange, redact: [String]?) -> Answer {
        switch exchange.result {
        case .failure(let error):
            return Answer(status: nil, headers: [], body: Data(), fault: error, sequence: exchange.sequence, path: "")
        case .success(let response):
            var headers: [(String, String)] = []
            for field in response.head.headerFields where !Self.connectionHeaders.contains(field.name.canonicalName) {
                let value = redact != nil && Self.secretHeaders.contains(field.name.canonicalName) ? Self.redacted : field.value
                if let index = headers.firstIndex(where: { $0.0.lowercased() == field.name.canonicalName }) {
                    headers[index].1 += ", " + value
                } else {
                    headers.append((field.name.rawName, value))
                }
            }
            let path = URLComponents(string: exchange.request.url)?.path ?? ""
            let body = redact.map { Self.redactingSecrets(in: response.body, pointers: $0) } ?? response.body
            var stream = exchange.stream
            if let redact, var script = stream {
                for index in script.items.indices {
                    script.items[index].bytes = Self.redactingSecrets(inEvents: script.items[index].bytes, pointers: redact)
                }
                stream = script
            }
            var conversation = exchange.conversation
            if let redact, var messages = conversation?.messages {
                // The server's messages; the Model's become matchers, which leave their secrets out instead.
                for index in messages.indices where !messages[index].sent {
                    if case .text(let text) = messages[index].message {
                        messages[index].message = .text(String(decoding: Self.redactingSecrets(in: Data(text.utf8), pointers: redact), as: UTF8.self))
                    }
                }
                conversation?.messages = messages
            }
            return Answer(status: response.head.status.code, headers: headers, body: body, fault: nil, stream: stream,
                          conversation: conversation, sequence: exchange.sequence, path: path)
        }
    }

    /// For a read (GET or HEAD) whose answer changed during the recording: each distinct answer with the write
    /// that came last before it changed — the route of that write and how many times it had answered — so replay
    /// follows cause, not count. Nil when an answer changed with no write before it (a feed that moved on by
    /// itself), which replays in recorded order instead.
    static func causes(of route: RouteDraft, in recorded: [(sequence: Int, key: RouteDraft.Key)],
                               names: [RouteDraft.Key: String]) -> [(answer: Answer, after: RouteOutcome.Condition?)]? {
        guard ["GET", "HEAD"].contains(route.key.method), route.answers.count > 1 else { return nil }
        var states: [(answer: Answer, after: RouteOutcome.Condition?)] = [(route.answers[0], nil)]
        for (previous, answer) in zip(route.answers, route.answers.dropFirst()) where answer != states.last?.answer {
            guard let write = recorded.last(where: {
                $0.sequence > previous.sequence && $0.sequence < answer.sequence && !["GET", "HEAD"].contains($0.key.method)
            }), let name = names[write.key] else { return nil }
            let times = recorded.filter { $0.key == write.key && $0.sequence <= write.sequence }.count
            states.append((answer, RouteOutcome.Condition(route: name, times: times)))
        }
        return states.count > 1 ? states : nil
    }

    func uniqueName(_ key: RouteDraft.Key, used: inout UniqueNames) -> String {
        let path = URLComponents(string: key.url)?.path ?? ""
        let last = (path as NSString).lastPathComponent
        let stem = ((last as NSString).deletingPathExtension).lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        var base = "\(key.method.lowercased())-\(stem.isEmpty || String(stem) == "-" ? "root" : String(stem))"
        base = base.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return used.claim(base)
    }
}
