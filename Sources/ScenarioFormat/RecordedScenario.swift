import Fakes
public import Foundation
import HTTPTypes
import Services
import Yams

/// A recording turned into a scenario directory: `scenario.yaml` with one route per distinct request and the
/// response bodies as fixture files.
///
/// Identical requests (method, URL, query, JSON body) that got different answers become one route with several
/// `responses`. A read (GET, HEAD) whose answer changed after a write (a POST, PUT, PATCH, DELETE) answers by cause:
/// each later response says `after: WRITE-ROUTE` (or `{route:, times:}`), so a replay gets the before-answer however
/// often it reads before the write, and the after-answer once the write has happened. Other routes answer in
/// recorded order. Unless `keepSecrets` is set, credentials are left out:
/// `Authorization`, `Cookie` and `Set-Cookie` values; in JSON bodies, the fields that are always secrets
/// (``/Services/JSONValue/secretFieldNames``) and the scenario's `network.redact` pointers — a request matcher leaves
/// them out (it matches any value there) and a response fixture holds `<redacted>` instead; and in form bodies and
/// query strings, the same field names.
public struct RecordedScenario: Sendable {
    /// The header fields whose values are secrets.
    public static let secretHeaders: Set<String> = ["authorization", "cookie", "set-cookie"]
    /// What a redacted value reads.
    public static let redacted = "<redacted>"
    /// Response fields that describe one connection, not the resource; replay would send them wrongly.
    static let connectionHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "date", "upgrade", "te", "trailer",
        "proxy-authenticate", "proxy-connection",
    ]

    /// The new scenario's name (its directory name).
    public var name: String
    /// The files to write, by path relative to the scenario directory: `scenario.yaml` and `fixtures/…`.
    public private(set) var files: [String: Data] = [:]
    /// How many routes the scenario has.
    public private(set) var routeCount = 0
    /// The JSON pointers left out besides the secret fields; nil when secrets are kept.
    private var redact: [String]?

    /// Where the exchanges came from, as the new scenario says it: its description, Model, clock, seed and header.
    public struct Origin: Sendable {
        /// The scenario's `description`.
        public var description: String
        /// The Model the scenario runs (`model:`).
        public var model: String
        /// The replay's clock; a recording on the system clock replays frozen where it started.
        public var clock: ClockSettings
        /// The key-value seed to keep, by key, as JSON (or text) bytes.
        public var seed: [String: Data]
        /// JSON pointers whose values are secrets besides the fields that always are (`network.redact`).
        public var redact: [String]
        /// The comment the file opens with (one line, without `#`), saying who wrote it from what.
        public var header: String

        /// An origin with these parts.
        public init(description: String, model: String, clock: ClockSettings, seed: [String: Data] = [:],
                    redact: [String] = [], header: String) {
            self.description = description
            self.model = model
            self.clock = clock
            self.seed = seed
            self.redact = redact
            self.header = header
        }
    }

    /// Builds the scenario from a recording session.
    /// - Parameters:
    ///   - name: The new scenario's name.
    ///   - source: The scenario the recording session ran (its Model, clock and seed are kept).
    ///   - session: The recording session's id, for the description.
    ///   - exchanges: What the session recorded, in any order; they are sorted by arrival.
    ///   - startedAt: When the session started, on its clock: a recording on the system clock replays frozen there.
    ///   - keepSecrets: Keep `Authorization`, `Cookie` and `Set-Cookie` values (and match on the first two).
    public init(name: String, source: Scenario, session: String, exchanges: [RecordedExchange], startedAt: Date,
                keepSecrets: Bool = false) {
        let requests = exchanges.count
        var clock = source.clock
        if clock.mode == .system {
            clock.start = startedAt
            clock.mode = .frozen
        }
        let origin = Origin(
            description: "Recorded from session '\(session)' of '\(source.name)': \(requests) request\(requests == 1 ? "" : "s") from \(InstantText.format(startedAt)).",
            model: source.model, clock: clock, seed: source.seed, redact: source.network.redact,
            header: "Recorded by scenariod on \(InstantText.format(Date())); replays without a network.")
        self.init(name: name, origin: origin, exchanges: exchanges, keepSecrets: keepSecrets)
    }

    /// Builds the scenario from exchanges that came from elsewhere (an imported HAR file).
    /// - Parameters:
    ///   - name: The new scenario's name.
    ///   - origin: What the scenario says of itself, and its Model, clock and seed.
    ///   - exchanges: The requests and their answers, in any order; they are sorted by `sequence`.
    ///   - keepSecrets: Keep `Authorization`, `Cookie` and `Set-Cookie` values (and match on the first two).
    public init(name: String, origin: Origin, exchanges: [RecordedExchange], keepSecrets: Bool = false) {
        self.name = name
        let ordered = exchanges.sorted { $0.sequence < $1.sequence }
        var routes: [RouteDraft] = []
        var index: [RouteDraft.Key: Int] = [:]
        let redact = keepSecrets ? nil : origin.redact
        self.redact = redact
        for exchange in ordered {
            let key = RouteDraft.Key(exchange.request, redact: redact)
            if let existing = index[key] {
                routes[existing].answers.append(answer(exchange, redact: redact))
            } else {
                index[key] = routes.count
                routes.append(RouteDraft(key: key, firstSequence: exchange.sequence, answers: [answer(exchange, redact: redact)]))
            }
        }
        // A route matches requests with more query items or body keys too, so the more specific routes of one
        // method and URL go first; otherwise recorded order.
        let firstOfURL = Dictionary(routes.map { ("\($0.key.method) \($0.key.url)", $0.firstSequence) }) { min($0, $1) }
        routes.sort {
            let left = (firstOfURL["\($0.key.method) \($0.key.url)"]!, -$0.key.query.count, -$0.key.bodyText.count, $0.firstSequence)
            let right = (firstOfURL["\($1.key.method) \($1.key.url)"]!, -$1.key.query.count, -$1.key.bodyText.count, $1.firstSequence)
            return left < right
        }
        routeCount = routes.count
        var usedNames = UniqueNames()
        var names: [RouteDraft.Key: String] = [:]
        for route in routes { names[route.key] = uniqueName(route.key, used: &usedNames) }
        let recorded = ordered.map { (sequence: $0.sequence, key: RouteDraft.Key($0.request, redact: redact)) }
        let routeNodes = routes.map { route -> Node in
            routeNode(route, name: names[route.key]!, causes: Self.causes(of: route, in: recorded, names: names))
        }
        files["scenario.yaml"] = scenarioYAML(origin: origin, keepSecrets: keepSecrets, routes: routeNodes)
    }

    /// Writes the scenario as `root/NAME`, all at once: into a hidden directory first, renamed when complete, so a
    /// reload never sees half a scenario.
    /// - Returns: the new scenario directory.
    /// - Throws: `CocoaError(.fileWriteFileExists)` when `root/NAME` exists; file system errors otherwise.
    public func write(into root: URL) throws -> URL {
        try ScenarioDirectoryWriter.write(files, as: name, into: root)
    }

    // MARK: Routes

    private struct RouteDraft {
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

    private struct Answer: Equatable {
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

    private func answer(_ exchange: RecordedExchange, redact: [String]?) -> Answer {
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

    /// A response body with its credentials replaced by `<redacted>`: JSON fields, or form fields
    /// (`access_token=…&…`); any other body, or one without credentials, as it was.
    public static func redactingSecrets(in body: Data, pointers: [String]) -> Data {
        if let json = try? JSONValue(json: body) {
            let (value, changed) = json.redactingSecrets(pointers: pointers, replacement: .string(Self.redacted))
            return changed ? value.jsonData : body
        }
        let text = String(decoding: body, as: UTF8.self)
        guard text.contains("="), !text.contains(where: \.isWhitespace) else { return body }
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, JSONValue.isSecretField(String(parts[0]).removingPercentEncoding ?? String(parts[0])) else {
                return String(pair)
            }
            changed = true
            return "\(parts[0])=\(Self.redacted.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "redacted")"
        }
        return changed ? Data(pairs.joined(separator: "&").utf8) : body
    }

    /// A chunk of server-sent events with the credentials in each `data:` line that is JSON replaced, as in a body.
    static func redactingSecrets(inEvents chunk: Data, pointers: [String]) -> Data {
        let text = String(decoding: chunk, as: UTF8.self)
        var changed = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("data:") else { return String(line) }
            let value = line.dropFirst(5).drop { $0 == " " }
            let redacted = redactingSecrets(in: Data(value.utf8), pointers: pointers)
            guard redacted != Data(value.utf8) else { return String(line) }
            changed = true
            return "data: " + String(decoding: redacted, as: UTF8.self)
        }
        return changed ? Data(lines.joined(separator: "\n").utf8) : chunk
    }

    /// For a read (GET or HEAD) whose answer changed during the recording: each distinct answer with the write
    /// that came last before it changed — the route of that write and how many times it had answered — so replay
    /// follows cause, not count. Nil when an answer changed with no write before it (a feed that moved on by
    /// itself), which replays in recorded order instead.
    private static func causes(of route: RouteDraft, in recorded: [(sequence: Int, key: RouteDraft.Key)],
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

    private mutating func routeNode(_ route: RouteDraft, name: String, causes: [(answer: Answer, after: RouteOutcome.Condition?)]?) -> Node {
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

    private mutating func responseNode(_ answer: Answer) -> Node {
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
    private mutating func streamNode(_ stream: StreamScript, _ answer: Answer) -> Node {
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
    private static func webSocketNode(_ conversation: RecordedConversation, redact: [String]?) -> Node {
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
    private static func messageNode(_ send: WebSocketScript.Send) -> Node {
        let body: (Node, Node) = switch send.message {
        case .text(let text): ("text", Node.scenarioText(text))
        case .binary(let data): ("binary", Node.scenarioText(data.base64EncodedString()))
        }
        return .mapping(.init([(Node("at"), Node.scenarioText("+" + DurationText.format(send.offset))), body]))
    }

    /// `fixtures/003-feed.json`: the request's sequence number, its last path component, an extension from the type.
    private func fixtureName(_ answer: Answer) -> String {
        let type = answer.headers.first { $0.0.lowercased() == "content-type" }?.1.lowercased() ?? ""
        let ext = type.contains("json") ? "json" : type.contains("html") ? "html" : type.hasPrefix("text/") ? "txt" : "bin"
        var stem = (answer.path as NSString).lastPathComponent
        stem = (stem as NSString).deletingPathExtension
        stem = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(40))
        let number = String(answer.sequence).leftPadded(to: 3)
        return "fixtures/\(number)-\(stem.isEmpty || stem == "-" ? "response" : stem).\(ext)"
    }

    private func uniqueName(_ key: RouteDraft.Key, used: inout UniqueNames) -> String {
        let path = URLComponents(string: key.url)?.path ?? ""
        let last = (path as NSString).lastPathComponent
        let stem = ((last as NSString).deletingPathExtension).lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        var base = "\(key.method.lowercased())-\(stem.isEmpty || String(stem) == "-" ? "root" : String(stem))"
        base = base.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return used.claim(base)
    }

    // MARK: The file

    private func scenarioYAML(origin: Origin, keepSecrets: Bool, routes: [Node]) -> Data {
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
