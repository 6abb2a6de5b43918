import Foundation
import MCP
import Services

// The MCP SDK has its own JSON value type; the API's bodies are JSONValue. Converting member by member keeps every
// type as it is (an integer stays an integer), which a round trip through text would also do, at more cost.
extension MCP.Value {
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(MCP.Value.init))
        case .object(let members): self = .object(members.mapValues(MCP.Value.init))
        }
    }

    /// An API body as the daemon would send it (instants as ISO 8601, as everywhere else).
    static func encoding(_ body: some Encodable) -> MCP.Value {
        MCP.Value(JSONValue.encoding(body))
    }
}

extension JSONValue {
    init(_ value: MCP.Value) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        // A data URL in a tool's arguments: the API takes JSON, so it goes as the text the agent sent.
        case .data(let mimeType, let data): self = .string("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())")
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.mapValues(JSONValue.init))
        }
    }

    /// An API body as JSON, encoded as `scenarioctl --json` prints it.
    static func encoding(_ body: some Encodable) -> JSONValue {
        (try? JSONEncoder.services.encode(body)).flatMap { try? JSONValue(json: $0) } ?? .null
    }
}
