public import Foundation
public import Services

/// A Model's state as the JSON the control API sends: encoded once with sorted keys, then compared, published and
/// written as bytes. Parsing it into a ``JSONValue`` is left to whoever needs the values, since that costs more
/// than everything else in an action (profiled: over half of a session's start-up).
public struct ModelState: Sendable, Hashable, Codable {
    /// Compact JSON with sorted keys: equal states give equal bytes.
    public let jsonData: Data

    /// Wraps JSON that is already canonical (encoded with `JSONEncoder.services`).
    init(jsonData: Data) {
        self.jsonData = jsonData
    }

    /// The state as a JSON value.
    public func value() throws -> JSONValue {
        try JSONValue(json: jsonData)
    }

    /// The state decoded as `type`.
    public func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder.services.decode(T.self, from: jsonData)
    }

    public init(from decoder: any Decoder) throws {
        jsonData = try JSONValue(from: decoder).jsonData
    }

    public func encode(to encoder: any Encoder) throws {
        try value().encode(to: encoder)
    }
}
