import Fakes
import Foundation
import HTTPTypes
import Mustache
import Services
import Yams

/// Routes: `network.routes[i]` with its request matcher and its response, responses or fault.
extension ScenarioFileParser {
    static let routeKeys = ["name", "request", "response", "responses", "afterLast", "live"]
    static let requestKeys = ["method", "url", "urlPattern", "query", "headers", "bodyText", "body", "bodyFields"]
    /// The ways a value may be matched besides equality, written as a one-key mapping (`{regex: "^Bearer "}`).
    static let matchKeys = ["regex", "contains", "present", "absent"] + ValueMatch.Comparison.allCases.map(\.rawValue)
    static let responseKeys = ["status", "headers", "body", "bodyFile", "stream", "webSocket", "template", "graphql", "grpc", "delay", "fault", "after"]
    static let routePatchKeys = ["extends", "name", "request", "response", "responses", "afterLast", "live"]

    /// `- extends: ROUTE` and what changes: a parent's route changed only where this says (see ``RoutePatch``).
    mutating func parseRoutePatch(_ node: Node, at path: String) -> RoutePatch? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.routePatchKeys, required: ["extends"]),
              let extendsNode = keys["extends"] else { return nil }
        let problemsBefore = reader.problems.count
        let name = reader.string(extendsNode, at: "\(path).extends")
        if let nameNode = keys["name"], let given = reader.string(nameNode, at: "\(path).name"), let name, given != name {
            reader.report("\(path) extends the parent's route '\(name)' and keeps its name; remove 'name: \(given)', or drop 'extends' to add a new route.", at: nameNode)
        }
        if file.extends == nil {
            reader.report("\(path) extends a route, but this scenario extends no scenario; add 'extends: SCENARIO' at the top, or write the whole route.", at: extendsNode)
        }
        var patch = RoutePatch(name: name ?? "", line: extendsNode.mark?.line, column: extendsNode.mark?.column)
        var items: [Node] = []
        routeURL = nil
        if let node = keys["request"], let matcher = parseRequest(node, at: "\(path).request") {
            patch.request = matcher
            routeURL = matcher.exactURL
            patch.requestKeys = Self.keyNames(of: node)
        }
        switch (keys["response"], keys["responses"]) {
        case (_?, _?):
            reader.report("\(path) has both 'response' and 'responses'; keep one.", at: node)
        case (let single?, nil):
            patch.response = parseResponse(single, at: "\(path).response")
            patch.responseKeys = Self.keyNames(of: single)
            if patch.responseKeys.contains("after") {
                reader.report("\(path).response has 'after', which chooses among 'responses'; list the answers before and after under 'responses'.", at: single)
            }
        case (nil, let list?):
            (patch.responses, items) = parseResponses(list, at: path)
        case (nil, nil):
            break
        }
        if let node = keys["afterLast"] { patch.afterLast = reader.choice(node, at: "\(path).afterLast", of: Route.SequenceEnd.self) }
        if let node = keys["live"] {
            patch.live = reader.bool(node, at: "\(path).live")
            let answers = ["response", "responses", "afterLast"].filter { keys[$0] != nil }
            if patch.live == true, !answers.isEmpty {
                reader.report("\(path) is live, so the real server answers; remove \(answers.map { "'\($0)'" }.joined(separator: ", ")).", at: node)
            }
        }
        guard reader.problems.count == problemsBefore, name != nil else { return nil }
        linkCauses(patch.responses ?? [], items, route: patch.name)
        return patch
    }

    /// The keys a mapping node has, as written.
    private static func keyNames(of node: Node) -> Set<String> {
        guard case .mapping(let mapping) = node else { return [] }
        return Set(mapping.keys.compactMap { $0.scalar?.string })
    }

    mutating func parseRoute(_ node: Node, at path: String) -> Route? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.routeKeys, required: ["name"]) else { return nil }
        let problemsBefore = reader.problems.count
        let name = keys["name"].flatMap { reader.string($0, at: "\(path).name") }
        let matcher = keys["request"].flatMap { parseRequest($0, at: "\(path).request") } ?? RequestMatcher()
        routeURL = matcher.exactURL
        if let liveNode = keys["live"], let live = reader.bool(liveNode, at: "\(path).live"), live {
            let answers = ["response", "responses", "afterLast"].filter { keys[$0] != nil }
            if !answers.isEmpty {
                reader.report("\(path) is live, so the real server answers; remove \(answers.map { "'\($0)'" }.joined(separator: ", ")).", at: node)
            }
            if keys["request"] == nil {
                reader.report("\(path) is live but has no 'request'; a live route must say which requests may reach the network.", at: node)
            }
            guard reader.problems.count == problemsBefore, let name else { return nil }
            return Route.live(name: name, matcher: matcher)
        }
        var outcomes: [RouteOutcome] = []
        var items: [Node] = []
        switch (keys["response"], keys["responses"]) {
        case (let single?, nil):
            if let outcome = parseResponse(single, at: "\(path).response") { outcomes = [outcome] }
            if case .mapping(let mapping) = single, let after = mapping["after"] {
                reader.report("\(path).response has 'after', which chooses among 'responses'; list the answers before and after under 'responses'.", at: after)
            }
        case (nil, let list?):
            (outcomes, items) = parseResponses(list, at: path)
        case (_?, _?):
            reader.report("\(path) has both 'response' and 'responses'; keep one.", at: node)
        case (nil, nil):
            reader.report("\(path) has no 'response' or 'responses'; say what matching requests get, or add 'live: true' to send them to the real server.", at: node)
        }
        var afterLast = Route.SequenceEnd.repeat
        if let node = keys["afterLast"] {
            if keys["responses"] == nil { reader.report("\(path).afterLast applies only to 'responses'.", at: node) }
            afterLast = reader.choice(node, at: "\(path).afterLast", of: Route.SequenceEnd.self) ?? .repeat
        }
        guard reader.problems.count == problemsBefore, let name, !outcomes.isEmpty else { return nil }
        let route = Route(name: name, matcher: matcher, outcomes: outcomes, afterLast: afterLast)
        if let mismatch = route.transportMismatch {
            reader.report("\(path): \(mismatch)", at: keys["request"] ?? node)
            return nil
        }
        linkCauses(outcomes, items, route: name)
        return route
    }

    /// `responses`: each answer parsed, the list checked for causal order; the items too, for ``linkCauses``.
    private mutating func parseResponses(_ list: Node, at path: String) -> (outcomes: [RouteOutcome], items: [Node]) {
        let items = reader.sequence(list, at: "\(path).responses", of: "responses") ?? []
        if items.isEmpty, case .sequence = list { reader.report("\(path).responses is empty; list at least one response.", at: list) }
        let outcomes = items.enumerated().compactMap { parseResponse($1, at: "\(path).responses[\($0)]") }
        checkCausalOrder(outcomes, items: items, at: path)
        return (outcomes, items)
    }

    /// Each `after:` of route `route`'s answers, where it was written, for the check that the route it names exists.
    private mutating func linkCauses(_ outcomes: [RouteOutcome], _ items: [Node], route: String) {
        for (outcome, item) in zip(outcomes, items) {
            guard let after = outcome.after, case .mapping(let mapping) = item, let node = mapping["after"] else { continue }
            causalLinks.append(.init(route: route, after: after.route, line: node.mark?.line, column: node.mark?.column))
        }
    }

    /// In a causal route the first response is the state before any write and every later one names its write.
    private mutating func checkCausalOrder(_ outcomes: [RouteOutcome], items: [Node], at path: String) {
        guard outcomes.count == items.count, outcomes.contains(where: { $0.after != nil }) else { return }
        if outcomes[0].after != nil {
            reader.report("\(path).responses[0] has 'after', but the first response answers before anything has happened; remove its 'after'.", at: items[0])
        }
        for index in outcomes.indices.dropFirst() where outcomes[index].after == nil {
            reader.report("\(path).responses[\(index)] has no 'after'; once one response says which route's answers it follows, every later one must (after: ROUTE, or after: {route: ROUTE, times: N}).", at: items[index])
        }
    }

    mutating func parseRequest(_ node: Node, at path: String, allowed: [String] = requestKeys) -> RequestMatcher? {
        guard let keys = reader.mapping(node, at: path, allowed: allowed) else { return nil }
        var matcher = RequestMatcher()
        if let node = keys["method"], let method = reader.string(node, at: "\(path).method") {
            if method.isEmpty || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
                reader.report("\(path).method must be an HTTP method such as GET or POST, got '\(method)'.", at: node)
            }
            matcher.method = method.uppercased()
        }
        switch (keys["url"], keys["urlPattern"]) {
        case (_?, _?):
            reader.report("\(path) has both 'url' and 'urlPattern'; keep one.", at: node)
        case (let node?, nil):
            guard let url = reader.string(node, at: "\(path).url") else { break }
            if url.contains("?") {
                reader.report("\(path).url must not contain a query; put query items under '\(path).query'.", at: node)
            } else if let parsed = URL(string: url), ["http", "https", "ws", "wss"].contains(parsed.scheme ?? ""), parsed.host != nil {
                matcher.url = .exact(url)
            } else {
                reader.report("\(path).url must be an absolute http or https URL (ws or wss for a WebSocket), got '\(url)'.", at: node)
            }
        case (nil, let node?):
            guard let source = reader.string(node, at: "\(path).urlPattern") else { break }
            do {
                matcher.url = .pattern(try URLPattern(source))
            } catch {
                reader.report("\(path).urlPattern is not a valid regular expression: \(error)", at: node)
            }
        case (nil, nil):
            break
        }
        if let node = keys["query"] { matcher.query = matchMap(node, at: "\(path).query") }
        if let node = keys["headers"] {
            matcher.headers = matchMap(node, at: "\(path).headers")
            for name in matcher.headers.keys.sorted() where HTTPField.Name(name) == nil {
                reader.report("\(path).headers has '\(name)', which is not a valid HTTP header name.", at: node)
            }
        }
        if let node = keys["bodyText"] { matcher.bodyText = valueMatch(node, at: "\(path).bodyText") }
        if let node = keys["body"] { matcher.body = reader.json(node) }
        if let node = keys["bodyFields"] {
            matcher.bodyFields = matchMap(node, at: "\(path).bodyFields")
            for pointer in matcher.bodyFields.keys.sorted() where !pointer.hasPrefix("/") {
                reader.report("\(path).bodyFields has '\(pointer)', which is not a JSON pointer; write the field's path from the body's top, such as /user/age.", at: node)
            }
        }
        return matcher
    }

    /// Names to value matchers: a scalar is matched for equality, a one-key mapping another way.
    private mutating func matchMap(_ node: Node, at path: String) -> [String: ValueMatch] {
        guard case .mapping(let mapping) = node else {
            reader.report("\(path) must be a mapping of names to values, got \(reader.describe(node)).", at: node)
            return [:]
        }
        var matches: [String: ValueMatch] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { continue }
            if let match = valueMatch(value, at: "\(path).\(name)") { matches[name] = match }
        }
        return matches
    }

    /// `Bearer t1`, or `{regex: …}`, `{contains: …}`, `{present: true}`, `{absent: true}`, `{gte: 18}` and the like.
    private mutating func valueMatch(_ node: Node, at path: String) -> ValueMatch? {
        guard case .mapping = node else { return reader.text(node, at: path).map(ValueMatch.equals) }
        guard let keys = reader.mapping(node, at: path, allowed: Self.matchKeys) else { return nil }
        guard keys.count == 1, let (kind, value) = keys.first else {
            reader.report("\(path) must name one way to match (\(Self.matchKeys.joined(separator: ", "))), got \(keys.count).", at: node)
            return nil
        }
        let place = "\(path).\(kind)"
        switch kind {
        case "regex":
            guard let source = reader.string(value, at: place) else { return nil }
            do {
                return .regex(try URLPattern(source))
            } catch {
                reader.report("\(place) is not a valid regular expression: \(error)", at: value)
                return nil
            }
        case "contains":
            return reader.text(value, at: place).map(ValueMatch.contains)
        case "present", "absent":
            guard let flag = reader.bool(value, at: place) else { return nil }
            guard flag else {
                reader.report("\(place) must be true; to say the opposite, write \(kind == "present" ? "absent" : "present"): true.", at: value)
                return nil
            }
            return kind == "present" ? .present : .absent
        default:
            guard let comparison = ValueMatch.Comparison(rawValue: kind), let text = reader.text(value, at: place) else { return nil }
            guard let bound = Double(text) else {
                reader.report("\(place) must be a number, got '\(text)'.", at: value)
                return nil
            }
            return .compare(comparison, bound)
        }
    }

    private mutating func parseResponse(_ node: Node, at path: String) -> RouteOutcome? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.responseKeys) else { return nil }
        let problemsBefore = reader.problems.count
        let delay = keys["delay"].flatMap { reader.duration($0, at: "\(path).delay") } ?? .zero
        let after = keys["after"].flatMap { parseAfter($0, at: "\(path).after") }
        if let faultNode = keys["fault"] {
            let others = ["status", "headers", "body", "bodyFile", "stream", "webSocket", "template", "graphql", "grpc"].filter { keys[$0] != nil }
            if !others.isEmpty {
                reader.report("\(path) has a 'fault' and \(others.map { "'\($0)'" }.joined(separator: ", ")); a fault sends no response, so keep only 'fault' and 'delay'.", at: node)
            }
            guard let fault = reader.choice(faultNode, at: "\(path).fault", of: TransportError.self),
                  reader.problems.count == problemsBefore else { return nil }
            return RouteOutcome(.fault(fault), delay: delay, after: after)
        }
        if let graphqlNode = keys["graphql"] {
            let others = ["status", "headers", "body", "bodyFile", "stream", "webSocket", "template"].filter { keys[$0] != nil }
            if !others.isEmpty {
                reader.report("\(path) has 'graphql' and \(others.map { "'\($0)'" }.joined(separator: ", ")); a GraphQL endpoint answers each query from its schema and data, so keep only 'graphql', 'delay' and 'after' (answer one operation differently with a route before this one that matches its operationName).", at: node)
            }
            guard let endpoint = parseGraphQL(graphqlNode, at: "\(path).graphql"), reader.problems.count == problemsBefore else { return nil }
            var outcome = RouteOutcome(.response(NetworkResponse(status: 200)), delay: delay, after: after)
            outcome.answerer = endpoint
            return outcome
        }
        if let grpcNode = keys["grpc"] {
            let others = ["status", "body", "bodyFile", "stream", "webSocket", "template", "graphql"].filter { keys[$0] != nil }
            if !others.isEmpty {
                reader.report("\(path) has 'grpc' and \(others.map { "'\($0)'" }.joined(separator: ", ")); a gRPC answer is its messages and status, so keep only 'grpc', 'headers' (its metadata), 'delay' and 'after'.", at: node)
            }
            let metadata = keys["headers"].map { headerMap($0, at: "\(path).headers") } ?? [:]
            guard let endpoint = parseGRPC(grpcNode, at: "\(path).grpc", url: routeURL), reader.problems.count == problemsBefore else { return nil }
            var fields = Self.fields(metadata)
            fields[.contentType] = "application/grpc"
            var outcome = RouteOutcome(.response(NetworkResponse(status: 200, headerFields: fields)), delay: delay, after: after)
            outcome.answerer = endpoint
            return outcome
        }
        let status = keys["status"].flatMap { reader.int($0, at: "\(path).status", in: 100...599) } ?? (keys["webSocket"] != nil ? 101 : 200)
        let headers = keys["headers"].map { headerMap($0, at: "\(path).headers") } ?? [:]
        var fields = Self.fields(headers)
        var body = Data()
        var stream: StreamScript?
        var chunks: [ParsedChunk] = []
        if let streamNode = keys["stream"] {
            let others = ["body", "bodyFile"].filter { keys[$0] != nil }
            if !others.isEmpty {
                reader.report("\(path) has a 'stream' and \(others.map { "'\($0)'" }.joined(separator: ", ")); a streamed body is its chunks, so keep one.", at: node)
            }
            let parsed = parseStream(streamNode, at: "\(path).stream")
            stream = parsed?.script
            chunks = parsed?.chunks ?? []
            if chunks.contains(where: { $0.data != nil }), fields[.contentType] == nil { fields[.contentType] = "text/event-stream" }
        }
        var webSocket: WebSocketScript?
        if let socketNode = keys["webSocket"] {
            let others = ["body", "bodyFile", "stream"].filter { keys[$0] != nil }
            if !others.isEmpty {
                reader.report("\(path) has a 'webSocket' and \(others.map { "'\($0)'" }.joined(separator: ", ")); a WebSocket answers with its conversation, so keep one.", at: node)
            }
            webSocket = parseWebSocket(socketNode, at: "\(path).webSocket")
        }
        switch (keys["body"], keys["bodyFile"]) {
        case (_?, _?):
            reader.report("\(path) has both 'body' and 'bodyFile'; keep one.", at: node)
        case (let node?, nil):
            if case .scalar = node, node.tag.rawValue == Tag.Name.str.rawValue {
                body = Data((node.scalar?.string ?? "").utf8)
            } else {
                body = reader.json(node).jsonData
                if fields[.contentType] == nil { fields[.contentType] = "application/json" }
            }
        case (nil, let node?):
            guard let file = reader.string(node, at: "\(path).bodyFile") else { break }
            body = fixture(file, at: "\(path).bodyFile", node: node) ?? Data()
            if file.hasSuffix(".json"), fields[.contentType] == nil { fields[.contentType] = "application/json" }
        case (nil, nil):
            break
        }
        var template: ResponseTemplate?
        if let node = keys["template"], reader.bool(node, at: "\(path).template") == true {
            template = parseTemplate(body: body, bodyNode: keys["body"] ?? keys["bodyFile"],
                                     bodyFile: keys["bodyFile"].flatMap { $0.scalar?.string }, headers: headers,
                                     headersNode: keys["headers"], json: fields[.contentType]?.contains("json") ?? false, at: path)
            template?.chunks = templateChunks(chunks, at: "\(path).stream")
        }
        guard reader.problems.count == problemsBefore else { return nil }
        return RouteOutcome(.response(NetworkResponse(status: status, headerFields: fields, body: body)), delay: delay, after: after,
                            template: template, stream: stream, webSocket: webSocket)
    }

    /// A header map as fields, in name order (headerMap has reported names that are not field names).
    static func fields(_ headers: [String: String]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    /// The body (inline or its `bodyFile`) and every header value holding a `{{tag}}`, compiled; each problem is placed
    /// at the key that wrote the template, with the line and column inside it.
    private mutating func parseTemplate(body: Data, bodyNode: Node?, bodyFile: String?, headers: [String: String], headersNode: Node?,
                                        json: Bool, at path: String) -> ResponseTemplate {
        var template = ResponseTemplate(body: nil, bodyIsJSON: json, headers: [:])
        if let bodyNode, !body.isEmpty {
            let place = bodyFile.map { "\(path).bodyFile '\($0)'" } ?? "\(path).body"
            if let text = String(data: body, encoding: .utf8) {
                template.body = compileTemplate(text, at: place, node: bodyNode)
            } else {
                reader.report("\(place) is not UTF-8 text, so it cannot be a template; remove 'template: true'.", at: bodyNode)
            }
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where value.contains("{{") {
            guard let field = HTTPField.Name(name) else { continue }
            template.headers[field] = compileTemplate(value, at: "\(path).headers.\(name)", node: headersNode?.mapping?[name] ?? headersNode)
        }
        return template
    }

    /// A stream's chunks that hold a `{{tag}}`, compiled, by index; each problem placed at the chunk's event (or its
    /// fixture).
    private mutating func templateChunks(_ chunks: [ParsedChunk], at path: String) -> [Int: ResponseTemplate.ChunkTemplate] {
        var templates: [Int: ResponseTemplate.ChunkTemplate] = [:]
        for (index, chunk) in chunks.enumerated() {
            let text = String(decoding: chunk.item.bytes, as: UTF8.self)
            guard text.contains("{{"), let compiled = compileTemplate(text, at: "\(path) chunk \(index + 1)", node: chunk.node) else { continue }
            templates[index] = .init(template: compiled, escaping: chunk.data.map(Self.escaping(ofData:)) ?? .none)
        }
        return templates
    }

    private mutating func compileTemplate(_ text: String, at place: String, node: Node?) -> MustacheTemplate? {
        for name in ResponseTemplate.unknownNames(in: text) {
            let root = String(name.prefix { $0 != "." })
            reader.report("\(place) reads '\(name)', which no request has.\(Suggestion.didYouMean(root, among: ResponseTemplate.roots)) A template reads request.method, request.url, request.path, request.query.NAME, request.headers.NAME, request.body.FIELD and now.", at: node)
        }
        do {
            return try ResponseTemplate.compile(text)
        } catch {
            reader.report("\(place) is not a valid template: \(error.message) (template line \(error.line), column \(error.column)).", at: node)
            return nil
        }
    }

    /// `after: ROUTE` (once ROUTE has answered) or `after: {route: ROUTE, times: N}`.
    private mutating func parseAfter(_ node: Node, at path: String) -> RouteOutcome.Condition? {
        if case .scalar = node {
            return reader.string(node, at: path).map { RouteOutcome.Condition(route: $0) }
        }
        guard let keys = reader.mapping(node, at: path, allowed: ["route", "times"], required: ["route"]),
              let route = keys["route"].flatMap({ reader.string($0, at: "\(path).route") }) else { return nil }
        let times = keys["times"].map { reader.int($0, at: "\(path).times", in: 1...1_000_000) } ?? 1
        return times.map { RouteOutcome.Condition(route: route, times: $0) }
    }

    /// Header fields by name, each name checked against HTTP's token rules; sorted so responses are deterministic.
    private mutating func headerMap(_ node: Node, at path: String) -> [String: String] {
        let values = reader.textMap(node, at: path) ?? [:]
        for name in values.keys.sorted() where HTTPField.Name(name) == nil {
            reader.report("\(path) has '\(name)', which is not a valid HTTP header name.", at: node)
        }
        return values
    }
}
