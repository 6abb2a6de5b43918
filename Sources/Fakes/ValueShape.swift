public import Services

/// The shape of a value as its type's `Decodable` conformance reads it, to full depth: the keys of each object and
/// whether they are required, the element of each list, the cases of each enum. A team service's state has one
/// (``ServiceDefinition/shape``), from which the daemon prints its JSON Schema and checks a scenario's section,
/// reporting every place that does not fit rather than the first error `Decodable` throws.
public indirect enum ValueShape: Sendable, Hashable {
    /// Text; `format` is `date-time` for a `Date`, `uri` for a `URL`, `uuid` for a `UUID`, `byte` for `Data`.
    case string(format: String?)
    /// A whole number.
    case integer
    /// Any number.
    case number
    /// True or false.
    case boolean
    /// One of these values: a `CaseIterable` enum's cases as they encode.
    case oneOf([JSONValue])
    /// A list whose elements have one shape.
    case list(of: ValueShape)
    /// An object with any keys whose values have one shape (`[String: Value]`).
    case map(of: ValueShape)
    /// An object with these keys, in the order the type reads them. `complete` is false when the type's decoding
    /// stopped before its last key (a custom `init(from:)` that refused the values it was shown): the keys listed
    /// are right, but there may be more.
    case object([Field], complete: Bool)
    /// A value whose shape could not be learnt (a type nested deeper than the reader follows, or a custom
    /// decoding it could not pass); anything fits, and the type's own decoding has the last word.
    case unknown

    /// One key of an object.
    public struct Field: Sendable, Hashable {
        /// The key, as the JSON has it.
        public var name: String
        /// Its value's shape.
        public var shape: ValueShape
        /// False for a key the type reads with `decodeIfPresent` (an optional), which may be left out or null.
        public var required: Bool

        /// Creates a field.
        public init(name: String, shape: ValueShape, required: Bool) {
            self.name = name
            self.shape = shape
            self.required = required
        }
    }

    /// The shape of `type`, read from its `init(from:)`.
    ///
    /// Decoding is run against a decoder that records what it is asked for. Where the type needs a real value to go
    /// on (an enum refuses an empty string), `example` supplies one: an encoded value of the type, such as a
    /// service's initial state, followed along the same keys; a `CaseIterable` enum supplies its first case.
    /// - Parameters:
    ///   - type: The type to describe.
    ///   - example: An encoded value of `type`, or nil.
    public init<T: Decodable>(of type: T.Type, example: JSONValue? = nil) {
        self = ValueShapeReader.read(type, example: example, depth: 0).shape
    }

    /// `a string`, `an integer`, `one of 'granted', 'denied'`: what a value of this shape is, in words.
    public var summary: String {
        switch self {
        case .string(let format?) where format == "date-time": "an instant such as 2026-11-02T09:00:00Z"
        case .string(let format?) where format == "uri": "a URL"
        case .string(let format?) where format == "uuid": "a UUID"
        case .string(let format?) where format == "byte": "base64 text"
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .oneOf(let values): "one of " + values.map(Self.quoted).joined(separator: ", ")
        case .list: "a list"
        case .map, .object: "a mapping"
        case .unknown: "a value"
        }
    }

    /// `'granted'` for text, the JSON otherwise.
    static func quoted(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "'\(text)'"
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        case .null: "null"
        case .array, .object: String(decoding: value.jsonData, as: UTF8.self)
        }
    }
}
