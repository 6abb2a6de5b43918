import Fakes
import Foundation
import Services
import Yams

/// How the routes are written: `scenario.yaml` as YAML nodes, fixture files beside it.
extension RecordedScenario {
    mutating func routeNode(_ route: RouteDraft, name: String, causes: [(answer: Answer, after: RouteOutcome.Condition?)]?) -> Node {
        var request: [(Node, Node)] = [("method", .init(route.key.method)), ("url", Node.scenarioText(route.key.url))]
        if !route.key.query.isEmpty { request.append(("query", Node.scenarioTextMapping(route.key.query))) }
        if !route.key.headers.isEmpty { request.append(("headers", Node.scenarioTextMapping(route.key.headers))) }
        if let body = route.key.body { request.append(("body", Node.scenarioValue(body))) }
        var pairs: [(Node, Node)] = [("name", Node.scenarioText(name)), ("request", .mapping(.init(request)))]
        // A read that a write changed answers by cause; answers all alike make one response; otherwise the
        // sequence as recorded, the last one repeating.
        if let causes {
            pairs.append(("responses", .sequence(.init(causes.map { state in
                var node = responseNode(state.answer)
                if let after = state.after, case .mapping(var mapping) = node {
                    mapping[Node.scenarioText("after")] = after.times == 1 ? Node.scenarioText(after.route)
                        : .mapping(.init([(Node.scenarioText("route"), Node.scenarioText(after.route)), (Node.scenarioText("times"), Node(String(after.times), Tag(.int)))]))
                    node = .mapping(mapping)
                }
                return node
            }))))
        } else if route.answers.allSatisfy({ $0 == route.answers[0] }) {
            pairs.append(("response", responseNode(route.answers[0])))
        } else {
            pairs.append(("responses", .sequence(.init(route.answers.map { responseNode($0) }))))
        }
        return .mapping(.init(pairs))
    }

    mutating func responseNode(_ answer: Answer) -> Node {
        if let fault = answer.fault { return .mapping(.init([("fault", .init(fault.rawValue))])) }
        if let conversation = answer.conversation {
            return .mapping(.init([(Node("webSocket"), Self.webSocketNode(conversation, redact: redact))]))
        }
        var pairs: [(Node, Node)] = [("status", .init(String(answer.status ?? 200)))]
        if !answer.headers.isEmpty {
            pairs.append(("headers", .mapping(.init(answer.headers.map { (Node.scenarioText($0.0), Node.scenarioText($0.1)) }))))
        }
        if let stream = answer.stream {
            pairs.append(("stream", streamNode(stream, answer)))
        } else if !answer.body.isEmpty {
            let file = fixtureName(answer)
            files[file] = answer.body
            pairs.append(("bodyFile", Node.scenarioText(file)))
        }
        return .mapping(.init(pairs))
    }

    /// A recorded stream as a `.jsonl` fixture of raw chunks at their offsets (so a replay sends the same bytes at
    /// the same instants), with its end.
    mutating func streamNode(_ stream: StreamScript, _ answer: Answer) -> Node {
        let file = (fixtureName(answer) as NSString).deletingPathExtension + ".jsonl"
        files[file] = Data(stream.items.map { item in
            let line = JSONValue.object(["at": .string("+" + DurationText.format(item.offset)),
                                         "text": .string(String(decoding: item.bytes, as: UTF8.self))])
            return String(decoding: line.jsonData, as: UTF8.self) + "\n"
        }.joined().utf8)
        var pairs: [(Node, Node)] = [("file", Node.scenarioText(file))]
        switch stream.end {
        case .close: break
        case .stall: pairs.append(("end", .init("stall")))
        case .drop(let fault): pairs += [("end", .init("drop")), ("fault", .init(fault.rawValue))]
        }
        if stream.endOffset > (stream.items.last?.offset ?? .zero) {
            pairs.append(("endAt", Node.scenarioText("+" + DurationText.format(stream.endOffset))))
        }
        return .mapping(.init(pairs))
    }

    /// A recorded WebSocket conversation as a scripted one. The server's messages before the Model's first are sent
    /// on connect; those after a message of the Model's are its reply, at their offsets from it, so a replay answers
    /// when its Model asks, however long it takes to. A message the server answered differently each time it came
    /// gets one `once` reply per time, in order. A binary message of the Model's cues no reply: what the server
    /// sent after it stays with the message before.
    static func webSocketNode(_ conversation: RecordedConversation, redact: [String]?) -> Node {
        var onConnect: [WebSocketScript.Send] = []
        var cues: [(when: Node, at: Duration, sends: [WebSocketScript.Send])] = []
        for item in conversation.messages {
            if item.sent {
                guard case .text(let text) = item.message else { continue }
                // The message as the matcher `body` (a JSON message with secrets, left out so that they match any
                // value) or `bodyText` (any other, or when secrets are kept).
                let when: Node
                if let redact, let json = try? JSONValue(json: Data(text.utf8)),
                   case let (redacted, changed) = json.redactingSecrets(pointers: redact, replacement: nil), changed {
                    when = .mapping(.init([(Node("body"), Node.scenarioValue(redacted))]))
                } else {
                    when = .mapping(.init([(Node("bodyText"), Node.scenarioText(text))]))
                }
                cues.append((when, item.offset, []))
            } else if let last = cues.indices.last {
                cues[last].sends.append(.init(offset: item.offset - cues[last].at, message: item.message))
            } else {
                onConnect.append(.init(offset: item.offset, message: item.message))
            }
        }
        var replies: [Node] = []
        var seen: Set<Node> = []
        for cue in cues where seen.insert(cue.when).inserted {
            let times = cues.filter { $0.when == cue.when }
            let answers = times.allSatisfy({ $0.sends == times[0].sends }) ? [times[0]] : times
            for (index, answer) in answers.enumerated() where !(answers.count == 1 && answer.sends.isEmpty) {
                var pairs: [(Node, Node)] = [("when", answer.when)]
                if index < answers.count - 1 { pairs.append(("once", .init("true"))) }
                pairs.append(("send", .sequence(.init(answer.sends.map(messageNode)))))
                replies.append(.mapping(.init(pairs)))
            }
        }
        var pairs: [(Node, Node)] = []
        if !onConnect.isEmpty { pairs.append(("onConnect", .sequence(.init(onConnect.map(messageNode))))) }
        if !replies.isEmpty { pairs.append(("replies", .sequence(.init(replies)))) }
        if let close = conversation.close {
            var closing: [(Node, Node)] = [("at", Node.scenarioText("+" + DurationText.format(close.offset)))]
            // A close without a code a frame may carry (1005: none given) replays as the default, 1000.
            if close.frame.code != 1000, (1000...4999).contains(close.frame.code), ![1005, 1006, 1015].contains(close.frame.code) {
                closing.append(("code", .init(String(close.frame.code))))
            }
            if !close.frame.reason.isEmpty { closing.append(("reason", Node.scenarioText(close.frame.reason))) }
            pairs.append(("close", .mapping(.init(closing))))
        }
        return .mapping(.init(pairs))
    }

    /// One message of a conversation: `{at: +120ms, text: …}`, or `binary:` in base64.
    static func messageNode(_ send: WebSocketScript.Send) -> Node {
        let body: (Node, Node) = switch send.message {
        case .text(let text): ("text", Node.scenarioText(text))
        case .binary(let data): ("binary", Node.scenarioText(data.base64EncodedString()))
        }
        return .mapping(.init([(Node("at"), Node.scenarioText("+" + DurationText.format(send.offset))), body]))
    }

    /// `fixtures/003-feed.json`: the request's sequence number, its last path component, an extension from the type.
    func fixtureName(_ answer: Answer) -> String {
        let type = answer.headers.first { $0.0.lowercased() == "content-type" }?.1.lowercased() ?? ""
        let ext = type.contains("json") ? "json" : type.contains("html") ? "html" : type.hasPrefix("text/") ? "txt" : "bin"
        var stem = (answer.path as NSString).lastPathComponent
        stem = (stem as NSString).deletingPathExtension
        stem = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(40))
        let number = String(answer.sequence).leftPadded(to: 3)
        return "fixtures/\(number)-\(stem.isEmpty || stem == "-" ? "response" : stem).\(ext)"
    }

    func scenarioYAML(origin: Origin, keepSecrets: Bool, routes: [Node]) -> Data {
        var top: [(Node, Node)] = [("description", Node.scenarioText(origin.description)), ("model", Node.scenarioText(origin.model))]
        var clock: [(Node, Node)] = [("start", .init(InstantText.format(origin.clock.start))), ("mode", .init(origin.clock.mode.rawValue))]
        if let zone = origin.clock.timeZone { clock.append(("timeZone", .init(zone))) }
        top.append(("clock", .mapping(.init(clock))))
        if !origin.seed.isEmpty {
            let seed = origin.seed.keys.sorted().map { key in
                (Node.scenarioText(key), Node.scenarioValue((try? JSONValue(json: origin.seed[key]!)) ?? .string(String(decoding: origin.seed[key]!, as: UTF8.self))))
            }
            top.append(("keyValue", .mapping(.init([("seed", .mapping(.init(seed)))]))))
        }
        top.append(("network", .mapping(.init([("unmatched", "connectionRefused"), ("routes", .sequence(.init(routes)))]))))
        let header = """
        # \(origin.header)
        # Each route answers in the order the responses were recorded.\(keepSecrets ? "" : "\n# Credentials were left out: Authorization, Cookie and Set-Cookie values, and secret body and query fields (password,\n# access_token, …) in request matchers (which then match any value) and response fixtures (<redacted>); --keep-secrets keeps them.")

        """
        let body = (try? Yams.serialize(node: .mapping(.init(top)), width: -1, allowUnicode: true)) ?? ""
        return Data((header + body).utf8)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
