package import Fakes
package import Foundation
package import Services
import SwiftProtobuf

/// Protobuf's binary form ↔ its JSON form (proto3's JSON mapping), driven by a ``DescriptorPool``: a scenario writes
/// messages as JSON and matches the client's as JSON, whatever the app's generated types. Written by hand because
/// swift-protobuf reads and writes only the types generated into a program; 64-bit integers are JSON strings, bytes
/// base64, enums their names, fields their JSON names (the proto names are read too).
package struct ProtobufJSON: Sendable {
    let pool: DescriptorPool

    package init(pool: DescriptorPool) {
        self.pool = pool
    }

    // MARK: Binary → JSON

    /// The JSON form of `bytes`, a message of type `type` (a full name).
    package func json(of bytes: Data, type: String) throws(RPCDecodingError) -> JSONValue {
        var reader = WireReader(bytes: [UInt8](bytes))
        return try decodeMessage(&reader, type: type, at: "")
    }

    private func decodeMessage(_ reader: inout WireReader, type: String, at path: String) throws(RPCDecodingError) -> JSONValue {
        guard let message = pool.messages[type] else { throw RPCDecodingError("the descriptor set has no message \(type)") }
        let byNumber = Dictionary(message.field.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var object: [String: JSONValue] = [:]
        while !reader.isAtEnd {
            let tag = try reader.varint(at: path)
            let number = Int32(truncatingIfNeeded: tag >> 3), wireType = Int(tag & 7)
            guard let field = byNumber[number] else {
                try reader.skip(wireType: wireType, at: path)  // an unknown field, as a newer server's
                continue
            }
            let place = "\(path)/\(field.jsonName)"
            if field.label == .repeated, let entry = mapEntry(of: field) {
                var entryReader = WireReader(bytes: try reader.lengthDelimited(at: place))
                let (key, value) = try decodeMapEntry(&entryReader, entry: entry, at: place)
                var map: [String: JSONValue] = [:]
                if case .object(let existing)? = object[field.jsonName] { map = existing }
                map[key] = value
                object[field.jsonName] = .object(map)
            } else if field.label == .repeated {
                var items: [JSONValue] = []
                if case .array(let existing)? = object[field.jsonName] { items = existing }
                if wireType == 2, Self.isPackable(field.type) {
                    var packed = WireReader(bytes: try reader.lengthDelimited(at: place))
                    while !packed.isAtEnd { items.append(try decodeScalar(&packed, field: field, wireType: Self.wireType(of: field.type), at: place)) }
                } else {
                    items.append(try decodeValue(&reader, field: field, wireType: wireType, at: place))
                }
                object[field.jsonName] = .array(items)
            } else {
                object[field.jsonName] = try decodeValue(&reader, field: field, wireType: wireType, at: place)
            }
        }
        return .object(object)
    }

    private func decodeValue(_ reader: inout WireReader, field: Google_Protobuf_FieldDescriptorProto, wireType: Int,
                             at path: String) throws(RPCDecodingError) -> JSONValue {
        guard field.type == .message else { return try decodeScalar(&reader, field: field, wireType: wireType, at: path) }
        guard wireType == 2 else { throw RPCDecodingError("\(path) has wire type \(wireType) where a message is length-delimited") }
        var nested = WireReader(bytes: try reader.lengthDelimited(at: path))
        return try decodeMessage(&nested, type: DescriptorPool.fullName(field.typeName), at: path)
    }

    private func decodeMapEntry(_ reader: inout WireReader, entry: Google_Protobuf_DescriptorProto,
                                at path: String) throws(RPCDecodingError) -> (String, JSONValue) {
        var key = "", value: JSONValue?
        while !reader.isAtEnd {
            let tag = try reader.varint(at: path)
            let number = Int32(truncatingIfNeeded: tag >> 3), wireType = Int(tag & 7)
            guard let field = entry.field.first(where: { $0.number == number }) else {
                try reader.skip(wireType: wireType, at: path)
                continue
            }
            let decoded = try decodeValue(&reader, field: field, wireType: wireType, at: path)
            if number == 1 {
                switch decoded {
                case .string(let text): key = text
                case .bool(let flag): key = flag ? "true" : "false"
                default: key = String(decoding: decoded.jsonData, as: UTF8.self)
                }
            } else {
                value = decoded
            }
        }
        let valueField = entry.field.first { $0.number == 2 }
        return (key, value ?? valueField.map(defaultJSON) ?? .null)
    }

    private func decodeScalar(_ reader: inout WireReader, field: Google_Protobuf_FieldDescriptorProto, wireType: Int,
                              at path: String) throws(RPCDecodingError) -> JSONValue {
        let expected = Self.wireType(of: field.type)
        guard wireType == expected else {
            throw RPCDecodingError("\(path) has wire type \(wireType) where a \(Self.typeName(field.type)) has \(expected)")
        }
        switch field.type {
        case .bool: return .bool(try reader.varint(at: path) != 0)
        case .int32: return .int(Int(Int32(truncatingIfNeeded: try reader.varint(at: path))))
        case .uint32: return .int(Int(UInt32(truncatingIfNeeded: try reader.varint(at: path))))
        case .sint32: return .int(Int(Self.unzigzag(try reader.varint(at: path))))
        case .int64: return .string(String(Int64(bitPattern: try reader.varint(at: path))))
        case .uint64: return .string(String(try reader.varint(at: path)))
        case .sint64: return .string(String(Self.unzigzag(try reader.varint(at: path))))
        case .enum:
            let number = Int32(truncatingIfNeeded: try reader.varint(at: path))
            let type = pool.enums[DescriptorPool.fullName(field.typeName)]
            return type?.value.first { $0.number == number }.map { .string($0.name) } ?? .int(Int(number))
        case .fixed32: return .int(Int(try reader.fixed32(at: path)))
        case .sfixed32: return .int(Int(Int32(bitPattern: try reader.fixed32(at: path))))
        case .float:
            // Through the float's shortest text, as swift-protobuf writes it: 0.1f is 0.1, not 0.10000000149011612.
            let value = Float(bitPattern: try reader.fixed32(at: path))
            return Self.json(value.isFinite ? Double(value.description) ?? Double(value) : Double(value))
        case .fixed64: return .string(String(try reader.fixed64(at: path)))
        case .sfixed64: return .string(String(Int64(bitPattern: try reader.fixed64(at: path))))
        case .double: return Self.json(Double(bitPattern: try reader.fixed64(at: path)))
        case .string:
            let bytes = try reader.lengthDelimited(at: path)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw RPCDecodingError("\(path) is a string field whose bytes are not UTF-8") }
            return .string(text)
        case .bytes: return .string(Data(try reader.lengthDelimited(at: path)).base64EncodedString())
        default: throw RPCDecodingError("\(path) is a \(Self.typeName(field.type)), which is not supported (proto2 groups)")
        }
    }

    /// A double as JSON; NaN and the infinities as proto3's strings.
    private static func json(_ value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value > 0 ? "Infinity" : "-Infinity") }
        return .double(value)
    }

    private func defaultJSON(_ field: Google_Protobuf_FieldDescriptorProto) -> JSONValue {
        switch field.type {
        case .bool: .bool(false)
        case .string, .bytes: .string("")
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: .string("0")
        case .message: .object([:])
        case .enum: pool.enums[DescriptorPool.fullName(field.typeName)]?.value.first.map { .string($0.name) } ?? .int(0)
        default: .int(0)
        }
    }

    // MARK: JSON → binary

    /// The protobuf bytes of `json`, a message of type `type`; a problem names its place (`/position/lat`) and, for
    /// a field the message lacks, the field meant.
    package func encode(_ json: JSONValue, type: String) throws(RPCDecodingError) -> Data {
        var writer = WireWriter()
        try encodeMessage(json, type: type, at: "", into: &writer)
        return Data(writer.bytes)
    }

    private func encodeMessage(_ json: JSONValue, type: String, at path: String, into writer: inout WireWriter) throws(RPCDecodingError) {
        guard let message = pool.messages[type] else { throw RPCDecodingError("the descriptor set has no message \(type)") }
        guard case .object(let object) = json else {
            throw RPCDecodingError("\(path.isEmpty ? "the message" : path) must be an object (a \(type)); got \(json.typeName)")
        }
        var byName: [String: Google_Protobuf_FieldDescriptorProto] = [:]
        for field in message.field {
            byName[field.name] = field
            byName[field.jsonName] = field
        }
        var fields: [(Google_Protobuf_FieldDescriptorProto, JSONValue, String)] = []
        for (key, value) in object {
            guard let field = byName[key] else {
                let names = message.field.map(\.jsonName)
                throw RPCDecodingError("\(path)/\(key) is not a field of \(type).\(Suggestion.didYouMean(key, among: names)) Its fields: \(names.joined(separator: ", ")).")
            }
            fields.append((field, value, "\(path)/\(key)"))
        }
        // In field-number order, as protobuf writers do: the same JSON always gives the same bytes.
        for (field, value, place) in fields.sorted(by: { $0.0.number < $1.0.number }) where value != .null {
            try encodeField(field, value, at: place, into: &writer)
        }
    }

    private func encodeField(_ field: Google_Protobuf_FieldDescriptorProto, _ value: JSONValue, at path: String,
                             into writer: inout WireWriter) throws(RPCDecodingError) {
        if field.label == .repeated, let entry = mapEntry(of: field) {
            guard case .object(let map) = value else { throw RPCDecodingError("\(path) must be an object (a map); got \(value.typeName)") }
            guard let keyField = entry.field.first(where: { $0.number == 1 }), let valueField = entry.field.first(where: { $0.number == 2 }) else { return }
            for key in map.keys.sorted() {
                var entryWriter = WireWriter()
                let keyJSON: JSONValue = keyField.type == .string ? .string(key) : keyField.type == .bool ? .bool(key == "true") : .string(key)
                try encodeSingle(keyField, keyJSON, at: "\(path)/\(key)", into: &entryWriter)
                try encodeSingle(valueField, map[key]!, at: "\(path)/\(key)", into: &entryWriter)
                writer.tag(field.number, wireType: 2)
                writer.lengthDelimited(entryWriter.bytes)
            }
        } else if field.label == .repeated {
            guard case .array(let items) = value else { throw RPCDecodingError("\(path) must be an array (a repeated field); got \(value.typeName)") }
            if Self.isPackable(field.type) {
                var packed = WireWriter()
                for (index, item) in items.enumerated() { try encodeScalar(field, item, at: "\(path)/\(index)", into: &packed) }
                writer.tag(field.number, wireType: 2)
                writer.lengthDelimited(packed.bytes)
            } else {
                for (index, item) in items.enumerated() { try encodeSingle(field, item, at: "\(path)/\(index)", into: &writer) }
            }
        } else {
            try encodeSingle(field, value, at: path, into: &writer)
        }
    }

    private func encodeSingle(_ field: Google_Protobuf_FieldDescriptorProto, _ value: JSONValue, at path: String,
                              into writer: inout WireWriter) throws(RPCDecodingError) {
        if field.type == .message {
            var nested = WireWriter()
            try encodeMessage(value, type: DescriptorPool.fullName(field.typeName), at: path, into: &nested)
            writer.tag(field.number, wireType: 2)
            writer.lengthDelimited(nested.bytes)
        } else {
            writer.tag(field.number, wireType: Self.wireType(of: field.type))
            try encodeScalar(field, value, at: path, into: &writer)
        }
    }

    private func encodeScalar(_ field: Google_Protobuf_FieldDescriptorProto, _ value: JSONValue, at path: String,
                              into writer: inout WireWriter) throws(RPCDecodingError) {
        let kind = Self.typeName(field.type)
        func integer(_ range: ClosedRange<Int64>) throws(RPCDecodingError) -> Int64 {
            let number: Int64? = switch value {
            case .int(let int): Int64(int)
            case .double(let double) where double.rounded() == double: Int64(exactly: double)
            case .string(let text): Int64(text)
            default: nil
            }
            guard let number, range.contains(number) else { throw RPCDecodingError("\(path) must be an integer in \(range.lowerBound)...\(range.upperBound) (\(kind)); got \(value.displayText)") }
            return number
        }
        func double() throws(RPCDecodingError) -> Double {
            switch value {
            case .int(let int): return Double(int)
            case .double(let double): return double
            case .string("NaN"): return .nan
            case .string("Infinity"): return .infinity
            case .string("-Infinity"): return -.infinity
            case .string(let text): if let number = Double(text) { return number }
            default: break
            }
            throw RPCDecodingError("\(path) must be a number (\(kind)); got \(value.displayText)")
        }
        switch field.type {
        case .bool:
            guard case .bool(let flag) = value else { throw RPCDecodingError("\(path) must be true or false (a bool); got \(value.displayText)") }
            writer.varint(flag ? 1 : 0)
        case .int32: writer.varint(UInt64(bitPattern: try integer(Int64(Int32.min)...Int64(Int32.max))))
        case .uint32: writer.varint(UInt64(try integer(0...Int64(UInt32.max))))
        case .sint32: writer.varint(Self.zigzag(try integer(Int64(Int32.min)...Int64(Int32.max))))
        case .int64: writer.varint(UInt64(bitPattern: try integer(Int64.min...Int64.max)))
        case .sint64: writer.varint(Self.zigzag(try integer(Int64.min...Int64.max)))
        case .uint64:
            if case .string(let text) = value, let number = UInt64(text) { writer.varint(number) } else { writer.varint(UInt64(try integer(0...Int64.max))) }
        case .fixed32: writer.fixed32(UInt32(try integer(0...Int64(UInt32.max))))
        case .sfixed32: writer.fixed32(UInt32(bitPattern: Int32(try integer(Int64(Int32.min)...Int64(Int32.max)))))
        case .fixed64:
            if case .string(let text) = value, let number = UInt64(text) { writer.fixed64(number) } else { writer.fixed64(UInt64(try integer(0...Int64.max))) }
        case .sfixed64: writer.fixed64(UInt64(bitPattern: try integer(Int64.min...Int64.max)))
        case .float:
            let number = try double()
            guard !number.isFinite || Float(number).isFinite else { throw RPCDecodingError("\(path) is \(number), past the largest float") }
            writer.fixed32(Float(number).bitPattern)
        case .double: writer.fixed64(try double().bitPattern)
        case .string:
            guard case .string(let text) = value else { throw RPCDecodingError("\(path) must be a string; got \(value.displayText)") }
            writer.lengthDelimited(Array(text.utf8))
        case .bytes:
            guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
                throw RPCDecodingError("\(path) must be base64 text (a bytes field); got \(value.displayText)")
            }
            writer.lengthDelimited([UInt8](data))
        case .enum:
            let type = pool.enums[DescriptorPool.fullName(field.typeName)]
            let names = type?.value.map(\.name) ?? []
            switch value {
            case .int(let number): writer.varint(UInt64(bitPattern: Int64(number)))
            case .string(let name):
                guard let number = type?.value.first(where: { $0.name == name })?.number else {
                    throw RPCDecodingError("\(path) is '\(name)', which \(DescriptorPool.fullName(field.typeName)) does not name.\(Suggestion.didYouMean(name, among: names)) Its values: \(names.joined(separator: ", ")).")
                }
                writer.varint(UInt64(bitPattern: Int64(number)))
            default: throw RPCDecodingError("\(path) must be a value's name (an enum); got \(value.displayText)")
            }
        default:
            throw RPCDecodingError("\(path) is a \(kind), which is not supported (proto2 groups)")
        }
    }

    // MARK: Types

    private func mapEntry(of field: Google_Protobuf_FieldDescriptorProto) -> Google_Protobuf_DescriptorProto? {
        guard field.type == .message, let entry = pool.messages[DescriptorPool.fullName(field.typeName)], entry.options.mapEntry else { return nil }
        return entry
    }

    static func wireType(of type: Google_Protobuf_FieldDescriptorProto.TypeEnum) -> Int {
        switch type {
        case .double, .fixed64, .sfixed64: 1
        case .string, .bytes, .message: 2
        case .float, .fixed32, .sfixed32: 5
        default: 0
        }
    }

    static func isPackable(_ type: Google_Protobuf_FieldDescriptorProto.TypeEnum) -> Bool {
        ![.string, .bytes, .message, .group].contains(type)
    }

    static func typeName(_ type: Google_Protobuf_FieldDescriptorProto.TypeEnum) -> String {
        String(describing: type).replacingOccurrences(of: "TYPE_", with: "").lowercased()
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}

extension JSONValue {
    /// The value as a problem quotes it.
    var displayText: String { String(decoding: jsonData, as: UTF8.self) }
}

/// Reads protobuf's wire format.
private struct WireReader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func varint(at path: String) throws(RPCDecodingError) -> UInt64 {
        var result: UInt64 = 0, shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        throw RPCDecodingError("\(path.isEmpty ? "the message" : path) ends inside a varint")
    }

    mutating func fixed32(at path: String) throws(RPCDecodingError) -> UInt32 {
        let raw = try take(4, at: path)
        return raw.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func fixed64(at path: String) throws(RPCDecodingError) -> UInt64 {
        let raw = try take(8, at: path)
        return raw.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func lengthDelimited(at path: String) throws(RPCDecodingError) -> [UInt8] {
        let length = try varint(at: path)
        guard length <= UInt64(bytes.count - index) else { throw RPCDecodingError("\(path.isEmpty ? "the message" : path) says \(length) bytes follow, and \(bytes.count - index) do") }
        return try take(Int(length), at: path)
    }

    private mutating func take(_ count: Int, at path: String) throws(RPCDecodingError) -> [UInt8] {
        guard count <= bytes.count - index else { throw RPCDecodingError("\(path.isEmpty ? "the message" : path) ends early") }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    mutating func skip(wireType: Int, at path: String) throws(RPCDecodingError) {
        switch wireType {
        case 0: _ = try varint(at: path)
        case 1: _ = try take(8, at: path)
        case 2: _ = try lengthDelimited(at: path)
        case 5: _ = try take(4, at: path)
        default: throw RPCDecodingError("\(path.isEmpty ? "the message" : path) has wire type \(wireType), which proto3 does not write")
        }
    }
}

/// Writes protobuf's wire format.
private struct WireWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7f) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func tag(_ number: Int32, wireType: Int) { varint(UInt64(number) << 3 | UInt64(wireType)) }

    mutating func fixed32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
    mutating func fixed64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }

    mutating func lengthDelimited(_ payload: [UInt8]) {
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}
