import Foundation
import Services

/// Learns a ``ValueShape`` by running a type's own `init(from:)` against a decoder that records each question:
/// which keys a keyed container is asked for and how (`decode` is required, `decodeIfPresent` optional), what a
/// list's element is, which scalar a single value is. Written by hand because no Codable library reflects a type's
/// coding shape, and a macro would tie every team's state to swift-syntax.
///
/// The decoder answers with values good enough to go on: the example's at the same keys when there is one (so an
/// enum without `CaseIterable` gets a case it accepts), else zeroes and empty text. A list is shown one element.
enum ValueShapeReader {
    /// How deep nested types are followed; a recursive type is `.unknown` below it.
    static let depthLimit = 12

    /// The shape of `type` and a value of it to go on with (nil when none could be made).
    static func read<T: Decodable>(_ type: T.Type, example: JSONValue?, depth: Int) -> (shape: ValueShape, value: T?) {
        if let leaf = leaf(type, example: example) { return leaf }
        if let iterable = type as? any (CaseIterable & Encodable).Type {
            let (values, first) = cases(of: iterable)
            return (.oneOf(values), first as? T)
        }
        let fromExample = example.flatMap { try? JSONDecoder.services.decode(T.self, from: $0.jsonData) }
        guard depth < depthLimit else { return (.unknown, fromExample) }
        let record = ShapeRecord(example: example, depth: depth)
        let value = try? T(from: ProbeDecoder(record: record))
        record.complete = value != nil
        return (record.shape, value ?? fromExample)
    }

    /// The types JSONDecoder.services reads as scalars of their own (and JSONValue, which is anything).
    private static func leaf<T>(_ type: T.Type, example: JSONValue?) -> (shape: ValueShape, value: T?)? {
        let found: (ValueShape, Any)
        switch type {
        case is String.Type: found = (.string(format: nil), example?.text ?? "")
        case is Bool.Type: found = (.boolean, example?.flag ?? false)
        case is Double.Type: found = (.number, 0.0)
        case is Float.Type: found = (.number, Float(0))
        case is Decimal.Type: found = (.number, Decimal(0))
        case is Date.Type: found = (.string(format: "date-time"), Date(timeIntervalSince1970: 0))
        case is URL.Type: found = (.string(format: "uri"), URL(string: "https://placeholder.invalid") as Any)
        case is UUID.Type: found = (.string(format: "uuid"), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case is Data.Type: found = (.string(format: "byte"), Data())
        case is JSONValue.Type: found = (.unknown, example ?? JSONValue.null)
        case let integer as any FixedWidthInteger.Type: found = (.integer, zero(of: integer))
        default: return nil
        }
        return (found.0, found.1 as? T)
    }

    private static func zero<I: FixedWidthInteger>(of type: I.Type) -> I { 0 }

    /// The cases as they encode, and the first case.
    private static func cases<C: CaseIterable & Encodable>(of type: C.Type) -> (values: [JSONValue], first: Any?) {
        // Encoded inside a list: a bare string is a JSON fragment, which not every encoder writes.
        let values = type.allCases.compactMap { item -> JSONValue? in
            guard let data = try? JSONEncoder.services.encode([item]), case .array(let list)? = try? JSONValue(json: data) else { return nil }
            return list.first
        }
        return (values, type.allCases.first)
    }
}

/// What the decoding of one value asked for; filled on one thread, read when the decoding is over.
private final class ShapeRecord {
    enum Kind {
        case unknown
        case fixed(ValueShape)
        case object
        case list
    }

    /// The key a dictionary's `allKeys` is shown, so its values are read once; no struct's `CodingKeys` has it.
    static let anyKey = "\u{1}any key"

    var kind = Kind.unknown
    var fields: [(name: String, required: Bool, record: ShapeRecord)] = []
    var element: ShapeRecord?
    var complete = true
    let example: JSONValue?
    let depth: Int

    init(example: JSONValue?, depth: Int) {
        self.example = example
        self.depth = depth
    }

    /// The first kind asked for wins; a type that tries another after a failure does not change it.
    func become(_ new: Kind) {
        if case .unknown = kind { kind = new }
    }

    /// The record of key `name`, added the first time it is asked for.
    func field(_ name: String, required: Bool) -> ShapeRecord {
        if let existing = fields.first(where: { $0.name == name }) { return existing.record }
        let value: JSONValue? = if case .object(let members)? = example {
            name == Self.anyKey ? members.keys.sorted().first.flatMap { members[$0] } : members[name]
        } else { nil }
        let record = ShapeRecord(example: value, depth: depth + 1)
        fields.append((name, required, record))
        return record
    }

    /// The record of the list's elements.
    func elementRecord() -> ShapeRecord {
        if let element { return element }
        let first: JSONValue? = if case .array(let items)? = example { items.first } else { nil }
        let record = ShapeRecord(example: first, depth: depth + 1)
        element = record
        return record
    }

    var shape: ValueShape {
        switch kind {
        case .unknown: return .unknown
        case .fixed(let shape): return shape
        case .list: return .list(of: element?.shape ?? .unknown)
        case .object:
            if fields.count == 1, let only = fields.first, only.name == Self.anyKey { return .map(of: only.record.shape) }
            let named = fields.filter { $0.name != Self.anyKey }
            return .object(named.map { ValueShape.Field(name: $0.name, shape: $0.record.shape, required: $0.required) },
                           complete: complete && named.count == fields.count)
        }
    }
}

/// Ends a decoding the reader cannot go on with; what was recorded until then stays.
private struct ProbeEnd: Error {}

private struct ProbeDecoder: Decoder {
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        record.become(.object)
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(record: record))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        record.become(.list)
        return ProbeUnkeyedContainer(record: record)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { ProbeSingleValue(record: record) }
}

/// Reads `type` into `record` (which a container made for it) and returns the value to go on with.
private func probe<T: Decodable>(_ type: T.Type, into record: ShapeRecord) throws -> T {
    let (shape, value) = ValueShapeReader.read(type, example: record.example, depth: record.depth)
    record.become(.fixed(shape))
    guard let value else { throw ProbeEnd() }
    return value
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }
    // A dictionary reads the keys it is shown; a struct asks for its own and never reads these.
    var allKeys: [Key] { Key(stringValue: ShapeRecord.anyKey).map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try probe(type, into: record.field(key.stringValue, required: true))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        _ = try? probe(type, into: record.field(key.stringValue, required: false))
        return nil
    }

    // The concrete overloads synthesised code calls; each reads as the generic one does.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, generic: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, generic: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, generic: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, generic: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, generic: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, generic: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, generic: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, generic: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, generic: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, generic: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, generic: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, generic: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, generic: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, generic: key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, generic key: Key) throws -> T {
        try probe(type, into: record.field(key.stringValue, required: true))
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        _ = try? probe(type, into: record.field(key.stringValue, required: false))
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let field = record.field(key.stringValue, required: true)
        field.become(.object)
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(record: field))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let field = record.field(key.stringValue, required: true)
        field.become(.list)
        return ProbeUnkeyedContainer(record: field)
    }

    func superDecoder() throws -> any Decoder { throw ProbeEnd() }
    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(record: record.field(key.stringValue, required: true)) }
}

/// A list of one element: enough to learn the element's shape.
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let record: ShapeRecord
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex > 0 }

    init(record: ShapeRecord) {
        self.record = record
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try probe(type, into: record.elementRecord())
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try probe(type, into: record.elementRecord())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        let element = record.elementRecord()
        element.become(.object)
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(record: element))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        let element = record.elementRecord()
        element.become(.list)
        return ProbeUnkeyedContainer(record: element)
    }

    mutating func superDecoder() throws -> any Decoder { throw ProbeEnd() }
}

/// A scalar: the type it is read as is its shape; the example's value (or zero, or empty text) is the answer.
private struct ProbeSingleValue: SingleValueDecodingContainer {
    let record: ShapeRecord
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { record.become(.fixed(.boolean)); return record.example?.flag ?? false }
    func decode(_ type: String.Type) throws -> String { record.become(.fixed(.string(format: nil))); return record.example?.text ?? "" }
    func decode(_ type: Double.Type) throws -> Double { number(type) }
    func decode(_ type: Float.Type) throws -> Float { number(type) }
    func decode(_ type: Int.Type) throws -> Int { integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // One level deeper, so a type that reads itself this way ends at the depth limit.
        let (shape, value) = ValueShapeReader.read(type, example: record.example, depth: record.depth + 1)
        record.become(.fixed(shape))
        guard let value else { throw ProbeEnd() }
        return value
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) -> I {
        record.become(.fixed(.integer))
        if case .int(let value)? = record.example { return I(exactly: value) ?? 0 }
        return 0
    }

    private func number<F: BinaryFloatingPoint>(_ type: F.Type) -> F {
        record.become(.fixed(.number))
        switch record.example {
        case .double(let value)?: return F(value)
        case .int(let value)?: return F(value)
        default: return 0
        }
    }
}

private extension JSONValue {
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var flag: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}
