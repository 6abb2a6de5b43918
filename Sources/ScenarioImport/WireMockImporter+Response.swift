import Foundation
import ScenarioFormat
import Services
import Yams

extension WireMockImporter {
    /// WireMock's faults and what a route says instead; nil: none is close enough (the mapping is left out).
    private static let faults: [String: String?] = [
        "CONNECTION_RESET_BY_PEER": "connectionReset",
        "EMPTY_RESPONSE": "connectionReset",
        "MALFORMED_RESPONSE_CHUNK": nil,
        "RANDOM_DATA_THEN_CLOSE": nil,
    ]
    /// Response keys a scenario cannot say, and why; listed, and the answer is sent without them.
    private static let untranslatableResponseKeys: [String: String] = [
        "delayDistribution": "a random delay is not deterministic, and scenarios are; the answer comes at once. Write a fixed delay: (250ms) by hand if the Model must see a wait.",
        "chunkedDribbleDelay": "a body dribbled out in chunks over time has no scenario equivalent; the answer comes whole and at once.",
        "transformers": "response transformers (templating, extensions) run in the WireMock server; the answer is sent as written. Scenario answers can be Mustache templates (template: true) if it must vary.",
        "transformerParameters": "response transformers run in the WireMock server; their parameters do nothing here.",
        "additionalProxyRequestHeaders": "proxy settings have no scenario equivalent.",
        "removeProxyRequestHeaders": "proxy settings have no scenario equivalent.",
        "proxyUrlPrefixToRemove": "proxy settings have no scenario equivalent.",
    ]

    /// A mapping's response as a route's response keys; nil when there is nothing to answer with (a proxy, or a
    /// fault scenariod cannot produce), and the mapping is left out.
    static func translateResponse(_ response: [String: JSONValue], place: Place, stem: String, context: inout Context) throws(ImportError) -> [(Node, Node)]? {
        if response["proxyBaseUrl"] != nil {
            context.note(place.child("proxyBaseUrl"), "the mapping was left out: its answer comes from another server, and a scenario serves without a network. Record that server's answers with a recording session (network: record) instead.")
            return nil
        }
        var delay: Node?
        switch response["fixedDelayMilliseconds"] {
        case nil, .int(0)?: break
        case .int(let milliseconds)? where milliseconds > 0:
            delay = Node.scenarioText(milliseconds < 1_000_000 ? "\(milliseconds)ms" : "\(milliseconds / 1000)s")
        case let other?:
            throw place.child("fixedDelayMilliseconds").error("'fixedDelayMilliseconds' must be a whole number of milliseconds, 0 or more, got \(other.typeName).")
        }
        for key in response.keys.sorted() {
            if let reason = untranslatableResponseKeys[key] { context.note(place.child(key), reason) }
        }
        if let fault = response["fault"] {
            let faultPlace = place.child("fault")
            guard case .string(let name) = fault, let translated = faults[name] else {
                let given = if case .string(let name) = fault { "'\(name)'" } else { fault.typeName }
                throw faultPlace.error("\(given) is not a WireMock fault; WireMock's are \(faults.keys.sorted().joined(separator: ", ")).")
            }
            guard let translated else {
                context.note(faultPlace, "the mapping was left out: \(name) sends broken bytes, which scenariod's transport errors cannot imitate. Use fault: connectionReset by hand for the nearest failure.")
                return nil
            }
            if name == "EMPTY_RESPONSE" {
                context.note(faultPlace, "EMPTY_RESPONSE (the connection closed with no answer) became fault: connectionReset, the transport error the Model sees for it.")
            }
            var pairs: [(Node, Node)] = [(Node("fault"), Node(translated))]
            if let delay { pairs.append((Node("delay"), delay)) }
            return pairs
        }
        var pairs: [(Node, Node)] = []
        switch response["status"] {
        case nil: break
        case .int(let status)? where (100...599).contains(status): pairs.append((Node("status"), Node(String(status), Tag(.int))))
        case let other?: throw place.child("status").error("'status' must be an HTTP status, 100 to 599, got \(other).")
        }
        if response["statusMessage"] != nil {
            context.note(place.child("statusMessage"), "a custom reason phrase is not part of a scenario answer; the status's standard one is sent, and the Model sees only the code.")
        }
        var headers: [(String, String)] = []
        if let fields = response["headers"] {
            for (name, value) in try members(fields, place: place.child("headers")) {
                let values: [JSONValue] = if case .array(let items) = value { items } else { [value] }
                var texts: [String] = []
                for item in values {
                    switch item {
                    case .string(let text): texts.append(text)
                    case .int, .double, .bool: texts.append(String(decoding: item.jsonData, as: UTF8.self))
                    default: throw place.child("headers").child(name).error("a response header's value must be text or a list of text, got \(item.typeName).")
                    }
                }
                var text = texts.joined(separator: ", ")
                if name.lowercased() == "set-cookie", !context.options.keepSecrets {
                    text = RecordedScenario.redacted
                    context.leftOutSecrets = true
                }
                headers.append((name, text))
            }
        }
        let bodies = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { response[$0] != nil }
        for extra in bodies.dropFirst() {
            context.note(place.child(extra), "the response also has '\(bodies[0])', which WireMock sends instead; this one was ignored.")
        }
        var body: (Node, Node)?
        switch bodies.first {
        case "body":
            guard case .string(let text) = response["body"]! else {
                throw place.child("body").error("'body' must be text; write a JSON answer as jsonBody.")
            }
            body = (Node("body"), Node.scenarioText(text))
        case "jsonBody":
            let json = response["jsonBody"]!
            switch json {
            case .object, .array, .int, .double, .bool: body = (Node("body"), Node.scenarioValue(json))
            case .string, .null:
                // A route sends text bodies as they are; a JSON string or null is sent as its JSON text.
                body = (Node("body"), Node.scenarioText(String(decoding: json.jsonData, as: UTF8.self)))
                if !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", "application/json")) }
            }
        case "base64Body":
            guard case .string(let text) = response["base64Body"]!, let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw place.child("base64Body").error("'base64Body' must be base64 text, and this is not.")
            }
            let type = headers.first { $0.0.lowercased() == "content-type" }?.1.lowercased() ?? ""
            let ext = type.contains("json") ? "json" : type.contains("html") ? "html" : type.hasPrefix("text/") ? "txt"
                : type.hasPrefix("image/") ? String(type.dropFirst(6).prefix { $0.isLetter }) : "bin"
            body = (Node("bodyFile"), Node.scenarioText(context.fixture(data, preferred: "fixtures/\(stem).\(ext.isEmpty ? "bin" : ext)")))
        case "bodyFileName":
            body = (Node("bodyFile"), Node.scenarioText(try copyBodyFile(response["bodyFileName"]!, place: place.child("bodyFileName"), context: &context)))
        default:
            break
        }
        if !headers.isEmpty {
            pairs.append((Node("headers"), .mapping(.init(headers.map { (Node.scenarioText($0.0), Node.scenarioText($0.1)) }))))
        }
        if let body { pairs.append(body) }
        if let delay { pairs.append((Node("delay"), delay)) }
        let known: Set<String> = ["status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName", "fixedDelayMilliseconds", "fault", "proxyBaseUrl"]
        for key in response.keys.sorted() where !known.contains(key) && untranslatableResponseKeys[key] == nil {
            context.note(place.child(key), "'\(key)' is not a response key scenarioctl knows; the answer is sent without it.")
        }
        return pairs
    }

    /// Copies `__files/NAME` into the scenario's fixtures; the fixture's path.
    /// - Throws: ``ImportError`` when the name leaves `__files` (absolute, or through `..`) or the file is missing.
    private static func copyBodyFile(_ value: JSONValue, place: Place, context: inout Context) throws(ImportError) -> String {
        guard case .string(let name) = value, !name.isEmpty else {
            throw place.error("'bodyFileName' must be a file name under __files, got \(value.typeName).")
        }
        let parts = name.split(separator: "/").filter { $0 != "." }
        guard !name.hasPrefix("/"), !name.hasPrefix("~"), !parts.contains(".."), !parts.isEmpty else {
            throw place.error("'\(name)' leaves __files; a body file's name is relative to __files and stays inside it. Move the file under __files and name it from there.")
        }
        let files = context.root.appendingPathComponent("__files")
        let url = parts.reduce(files) { $0.appendingPathComponent(String($1)) }
        // A symbolic link could still lead out of __files; the file itself must be inside.
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(files.resolvingSymlinksInPath().standardizedFileURL.path + "/") else {
            throw place.error("'\(name)' leads out of __files (through a symbolic link); copy the file itself into __files.")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: url.path) else {
            throw place.error("__files/\(parts.joined(separator: "/")) does not exist or cannot be read; add the file, or fix the name.")
        }
        let safe = parts.map { String($0.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" }) }
        return context.fixture(data, preferred: "fixtures/" + safe.joined(separator: "/"))
    }
}
