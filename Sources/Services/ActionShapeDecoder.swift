import Foundation

/// Learns an action's arguments from the `Action` enum itself: it decodes `{"<case>": {…}}` with a decoder that
/// answers every question with a placeholder and records which labels the synthesised `init(from:)` asks for, with
/// which types and whether through `decodeIfPresent`. Written by hand because no Codable library reflects a type's
/// coding shape; a macro could, but would tie every team's Model to swift-syntax.
enum ActionShapeDecoder {
    /// The arguments of case `name` of `Action`, or nil when `Action` has no such case.
    static func arguments<Action: Decodable>(of type: Action.Type, case name: String) -> [ArgumentDescription]? {
        let record = ShapeRecord()
        _ = try? Action(from: CaseDecoder(caseName: name, record: record))
        return record.caseFound ? record.arguments : nil
    }

    /// The fields of a struct-like `type` (a keyed container at the top), as its `init(from:)` asks for them.
    static func fields<T: Decodable>(of type: T.Type) -> [ArgumentDescription] {
        let record = ShapeRecord()
        _ = try? T(from: FieldsDecoder(record: record))
        return record.arguments
    }

    /// The JSON type a value of `type` takes, as JSONDecoder.services reads it.
    static func jsonType<T: Decodable>(of type: T.Type) -> String {
        if T.self == Date.self || T.self == URL.self || T.self == UUID.self || T.self == String.self { return "string" }
        if T.self == Bool.self { return "boolean" }
        if T.self == Double.self || T.self == Float.self || T.self == Decimal.self { return "number" }
        if T.self is any FixedWidthInteger.Type { return "integer" }
        let probe = PlaceholderDecoder()
        _ = try? T(from: probe)
        return probe.shape.kind
    }

    /// A placeholder value of `type`, so decoding can go on to the next argument.
    static func placeholder<T: Decodable>(_ type: T.Type, depth: Int = 0) throws -> T {
        // Types whose own init(from:) would refuse an empty value get a valid one.
        let known: Any? = switch T.self {
        case is Date.Type: Date(timeIntervalSince1970: 0)
        case is URL.Type: URL(string: "https://placeholder.invalid")
        case is UUID.Type: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        default: nil
        }
        if let value = known as? T { return value }
        return try T(from: PlaceholderDecoder(depth: depth))
    }
}

/// What the decoding asked for; one per description, used on one thread.
private final class ShapeRecord {
    var caseFound = false
    var arguments: [ArgumentDescription] = []
}

/// The top level: a keyed container whose only key is the case asked about.
private struct CaseDecoder: Decoder {
    let caseName: String
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CaseContainer<Key>(caseName: caseName, record: record))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ShapeEnd() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ShapeEnd() }
}

/// The top level of a struct: its keyed container records the fields.
private struct FieldsDecoder: Decoder {
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ArgumentContainer<Key>(record: record))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ShapeEnd() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ShapeEnd() }
}

private struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let caseName: String
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { Key(stringValue: caseName).map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { key.stringValue == caseName }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw ShapeEnd() }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        record.caseFound = true
        return KeyedDecodingContainer(ArgumentContainer<NestedKey>(record: record))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ShapeEnd() }
    func superDecoder() throws -> any Decoder { throw ShapeEnd() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ShapeEnd() }
}

/// The case's arguments: each `decode` is recorded as required, each `decodeIfPresent` as optional.
private struct ArgumentContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        note(key, type, required: true)
        return try ActionShapeDecoder.placeholder(type)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        note(key, type, required: false)
        return nil
    }
    // The concrete overloads the synthesised code calls for standard types; each records like the generic one.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { note(key, type, required: true); return false }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { note(key, type, required: true); return "" }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { note(key, type, required: true); return 0 }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { note(key, type, required: true); return 0 }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { note(key, type, required: true); return 0 }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { note(key, type, required: true); return 0 }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { note(key, type, required: true); return 0 }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { note(key, type, required: true); return 0 }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { note(key, type, required: true); return 0 }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { note(key, type, required: true); return 0 }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { note(key, type, required: true); return 0 }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { note(key, type, required: true); return 0 }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { note(key, type, required: true); return 0 }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { note(key, type, required: true); return 0 }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { note(key, type, required: false); return nil }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { note(key, type, required: false); return nil }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw ShapeEnd()
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ShapeEnd() }
    func superDecoder() throws -> any Decoder { throw ShapeEnd() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ShapeEnd() }

    private func note<T: Decodable>(_ key: Key, _ type: T.Type, required: Bool) {
        record.arguments.append(ArgumentDescription(name: key.stringValue, type: ActionShapeDecoder.jsonType(of: type), required: required))
    }
}

/// Answers anything with an empty value (so decoding goes on to the next argument) and remembers the first shape
/// it was asked for: object, array or scalar. Nested types get placeholders too, to a bounded depth.
private final class PlaceholderDecoder: Decoder {
    enum Shape {
        case unknown, object, array, string, number, boolean
        var kind: String {
            switch self {
            case .object, .unknown: "object"
            case .array: "array"
            case .string: "string"
            case .number: "number"
            case .boolean: "boolean"
            }
        }
    }
    var shape = Shape.unknown
    let depth: Int
    init(depth: Int = 0) { self.depth = depth }
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mark(_ new: Shape) { if shape == .unknown { shape = new } }

    /// A placeholder of `type` one level down; recursive types end in an error rather than run forever.
    func nested<T: Decodable>(_ type: T.Type) throws -> T {
        guard depth < 8 else { throw ShapeEnd() }
        return try ActionShapeDecoder.placeholder(type, depth: depth + 1)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        mark(.object)
        return KeyedDecodingContainer(EmptyKeyedContainer<Key>(decoder: self))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        mark(.array)
        return EmptyUnkeyedContainer()
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { ScalarContainer(decoder: self) }

    /// An object with no keys: optional fields are nil, required ones placeholders.
    private struct EmptyKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: PlaceholderDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { false }
        func decodeNil(forKey key: Key) throws -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.nested(type) }
        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            KeyedDecodingContainer(EmptyKeyedContainer<N>(decoder: decoder))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    private struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw ShapeEnd() }
        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> { throw ShapeEnd() }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ShapeEnd() }
        mutating func superDecoder() throws -> any Decoder { throw ShapeEnd() }
    }

    private struct ScalarContainer: SingleValueDecodingContainer {
        let decoder: PlaceholderDecoder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { decoder.mark(.boolean); return false }
        func decode(_ type: String.Type) throws -> String { decoder.mark(.string); return "" }
        func decode(_ type: Double.Type) throws -> Double { decoder.mark(.number); return 0 }
        func decode(_ type: Float.Type) throws -> Float { decoder.mark(.number); return 0 }
        func decode(_ type: Int.Type) throws -> Int { decoder.mark(.number); return 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { decoder.mark(.number); return 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { decoder.mark(.number); return 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { decoder.mark(.number); return 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { decoder.mark(.number); return 0 }
        func decode(_ type: UInt.Type) throws -> UInt { decoder.mark(.number); return 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { decoder.mark(.number); return 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { decoder.mark(.number); return 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { decoder.mark(.number); return 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { decoder.mark(.number); return 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
    }
}

/// Ends a decoding path the description does not need.
private struct ShapeEnd: Error {}

extension ArgumentDescription {
    /// The fields of a struct-like `Decodable` type, each with its JSON type and whether it is required, read from
    /// the type's own `init(from:)` (a team service's state, for the JSON Schema its daemon prints).
    public static func fields<T: Decodable>(of type: T.Type) -> [ArgumentDescription] {
        ActionShapeDecoder.fields(of: type)
    }
}
