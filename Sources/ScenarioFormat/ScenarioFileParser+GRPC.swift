import Fakes
import Foundation
import GRPCFakes
import HTTPTypes
import Services
import Yams

/// `response.grpc`: a gRPC method's answer, its messages written as JSON and encoded at load with the scenario's
/// descriptor set, so a field the message type lacks is a load problem with a did-you-mean, not a runtime surprise.
extension ScenarioFileParser {
    static let grpcKeys = ["descriptors", "messages", "replies", "status", "trailers"]
    static let grpcMessageKeys = ["at", "value"]
    static let grpcReplyKeys = ["when", "send", "once"]
    static let grpcStatusKeys = ["code", "message", "at"]

    /// Parses `node`, the answer of the method the route's URL names (`https://host/package.Service/Method`).
    mutating func parseGRPC(_ node: Node, at path: String, url: String?) -> GRPCEndpoint? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.grpcKeys, required: ["descriptors"]),
              let setNode = keys["descriptors"], let setFile = reader.string(setNode, at: "\(path).descriptors"),
              let setBytes = fixture(setFile, at: "\(path).descriptors", node: setNode) else { return nil }
        let pool: DescriptorPool
        if let known = descriptorPools[setBytes] {
            pool = known
        } else {
            do {
                pool = try DescriptorPool(descriptorSet: setBytes)
            } catch {
                reader.report("\(path).descriptors '\(setFile)' \(error.message).", at: setNode)
                return nil
            }
            descriptorPools[setBytes] = pool
        }
        guard let url, let components = URLComponents(string: url), let scheme = components.scheme, ["http", "https"].contains(scheme) else {
            reader.report("\(path) answers a gRPC method, which the route's request.url names exactly: https://HOST/package.Service/Method (http for a plaintext server).", at: node)
            return nil
        }
        let names = pool.methods.keys.sorted()
        guard let method = pool.methods[components.path] else {
            reader.report("\(path): the descriptor set '\(setFile)' has no method \(components.path).\(Suggestion.didYouMean(components.path, among: names)) Its methods: \(names.joined(separator: ", ")).", at: node)
            return nil
        }
        let codec = ProtobufJSON(pool: pool)
        var script = RPCScript()
        if let messagesNode = keys["messages"] {
            script.messages = messages(messagesNode, at: "\(path).messages", type: method.output, codec: codec)
        }
        if let repliesNode = keys["replies"] {
            if !method.clientStreaming {
                reader.report("\(path).replies answer a client's later messages, and \(method.path) takes one request message; write its answer under 'messages'.", at: repliesNode)
            } else if !method.serverStreaming {
                reader.report("\(path).replies would send more messages, and \(method.path) answers one; write it under 'messages' (it is sent once the client ends its stream).", at: repliesNode)
            }
            for (index, item) in (reader.sequence(repliesNode, at: "\(path).replies", of: "replies") ?? []).enumerated() {
                let place = "\(path).replies[\(index)]"
                guard let reply = reader.mapping(item, at: place, allowed: Self.grpcReplyKeys, required: ["when", "send"]),
                      let when = parseRequest(reply["when"]!, at: "\(place).when", allowed: ["body", "bodyFields"]) else { continue }
                let once = reply["once"].flatMap { reader.bool($0, at: "\(place).once") } ?? false
                script.replies.append(RPCScript.Reply(when: when, send: messages(reply["send"]!, at: "\(place).send", type: method.output, codec: codec), once: once))
            }
        }
        if let statusNode = keys["status"], let status = reader.mapping(statusNode, at: "\(path).status", allowed: Self.grpcStatusKeys, required: ["code"]) {
            guard let code = statusCode(status["code"]!, at: "\(path).status.code") else { return nil }
            let message = status["message"].flatMap { reader.text($0, at: "\(path).status.message") } ?? ""
            script.status = RPCStatus(code: code, message: message)
            script.statusOffset = status["at"].flatMap { offset($0, at: "\(path).status.at") }
            if let end = script.statusOffset, let last = script.messages.last, last.offset > end, let atNode = status["at"] {
                reader.report("\(path).status.at is \(DurationText.format(end)), before the last message's \(DurationText.format(last.offset)); the status ends the call, so it comes last.", at: atNode)
            }
        }
        if !method.serverStreaming, script.status.code == 0, script.messages.count != 1 {
            reader.report("\(path): \(method.path) answers one message and this answer has \(script.messages.count); write one under 'messages', or a status other than OK.", at: keys["messages"] ?? node)
        }
        if let trailersNode = keys["trailers"], let trailers = reader.textMap(trailersNode, at: "\(path).trailers") {
            for (name, value) in trailers.sorted(by: { $0.key < $1.key }) {
                guard let fieldName = HTTPField.Name(name) else {
                    reader.report("\(path).trailers has '\(name)', which is not a metadata key.", at: trailersNode)
                    continue
                }
                script.trailers.append(HTTPField(name: fieldName, value: value))
            }
        }
        return GRPCEndpoint(method: method, pool: pool, script: script)
    }

    /// Messages at offsets from their cue: `{at: +30s, value: {…}}`, each encoded as `type`; an offset not written
    /// is the previous message's.
    private mutating func messages(_ node: Node, at path: String, type: String, codec: ProtobufJSON) -> [RPCScript.Send] {
        var sends: [RPCScript.Send] = []
        for (index, item) in (reader.sequence(node, at: path, of: "messages") ?? []).enumerated() {
            let place = "\(path)[\(index)]"
            guard let keys = reader.mapping(item, at: place, allowed: Self.grpcMessageKeys, required: ["value"]) else { continue }
            let at = messageOffset(keys["at"], after: sends.last?.offset ?? .zero, at: place)
            let json = reader.json(keys["value"]!)
            do {
                sends.append(RPCScript.Send(offset: at, message: try codec.encode(json, type: type), json: json))
            } catch {
                reader.report("\(place).value\(error.message.hasPrefix("/") ? "" : ": ")\(error.message)", at: keys["value"]!)
            }
        }
        return sends
    }

    /// A status code by gRPC's name (`NOT_FOUND`, or `notFound`) or number.
    private mutating func statusCode(_ node: Node, at path: String) -> Int? {
        guard let text = reader.text(node, at: path) else { return nil }
        if let number = Int(text), (0...16).contains(number) { return number }
        let written = text.replacingOccurrences(of: "_", with: "").lowercased()
        if let index = RPCStatus.codeNames.firstIndex(where: { $0.replacingOccurrences(of: "_", with: "").lowercased() == written }) { return index }
        let suggestion = Int(text) == nil ? Suggestion.didYouMean(text, among: RPCStatus.codeNames) : ""
        reader.report("\(path) must be a gRPC status code, by name or number 0-16, got '\(text)'.\(suggestion) The codes: \(RPCStatus.codeNames.joined(separator: ", ")).", at: node)
        return nil
    }
}

extension RequestMatcher {
    /// The URL it matches when it names one exactly.
    var exactURL: String? {
        if case .exact(let url) = url { return url }
        return nil
    }
}
