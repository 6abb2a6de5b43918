public import Foundation

/// Any JSON value, as a Sendable value type: key-value state, route bodies and action arguments travel as this.
public enum JSONValue: Sendable, Hashable, Codable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits an `Int` (`42`); decoding tries it before ``double(_:)``.
    case int(Int)
    /// Any other number (`4.5`).
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; its members' order is not kept (``jsonData`` sorts the keys, so equal values give equal bytes).
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The Decoder API cannot ask a value's kind, so each miss throws, and a thrown DecodingError (with its
        // coding path and description) is what a JSONValue's decoding costs: the kinds states are made of come
        // first. Numbers stay last, Int before Double, so `1` is `.int` and `1.5` is `.double`.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([String: JSONValue].self) { self = .object(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else { self = .double(try container.decode(Double.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON bytes.
    public init(json data: Data) throws {
        // The strict parser reads RFC 8259 JSON several times faster than Foundation's decoder does through this
        // type's Codable conformance, which tries each kind in turn (profiled: a journaled request body cost more
        // than the rest of the request). What it refuses, a trailing comma or a duplicate key, Foundation's
        // decoder still reads as it always did, and a body neither reads throws Foundation's error, as before.
        do {
            self = try JSONValue(strictJSON: data)
            return
        } catch where error.isInexactNumber {
            // Foundation would read it as another number: kept out, the bytes stay the text they were.
            throw error
        } catch {}
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value encoded as compact JSON with sorted keys: equal values give equal bytes.
    public var jsonData: Data {
        // Encoding a JSONValue cannot fail: every case maps to a JSON value.
        (try? JSONEncoder.services.encode(self)) ?? Data("null".utf8)
    }

    /// The JSON type's name, for error messages ("expected a string, got an object").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// True when every member of `pattern` is in `self`: objects by key (extra keys in `self` are allowed),
    /// arrays element by element with equal length, numbers by value, everything else by equality.
    public func contains(_ pattern: JSONValue) -> Bool {
        switch (self, pattern) {
        case (.object(let actual), .object(let expected)):
            return expected.allSatisfy { key, value in actual[key].map { $0.contains(value) } ?? false }
        case (.array(let actual), .array(let expected)):
            return actual.count == expected.count && zip(actual, expected).allSatisfy { $0.contains($1) }
        case (.int(let actual), .double(let expected)): return Double(actual) == expected
        case (.double(let actual), .int(let expected)): return actual == Double(expected)
        default: return self == pattern
        }
    }
}
