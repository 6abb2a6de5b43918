import ControlAPI
import Foundation
import Hummingbird
import NIOCore
import Services

/// Reads request bodies strictly: at most ``limit`` bytes, valid JSON (or 400 saying where it broke), only known
/// fields (or 400 naming the stranger), the right types (or 400 naming the field).
enum JSONBody {
    /// The largest request body accepted: 1 MiB.
    static let limit = 1 << 20
    /// The deepest nesting of arrays and objects accepted; parsers recurse, so depth is bounded before parsing.
    static let depthLimit = 64

    /// The body as a JSON value; an empty body is `emptyMeans`, or refused when that is nil (the body is required).
    /// - Throws: ``APIError`` 415 `unsupportedMediaType` for a body whose `Content-Type` names another media type
    ///   than `mediaTypes` (one that names none is read as JSON): the API document lists only `application/json`,
    ///   and a client that says it sends text or a form has sent something else by mistake.
    static func value(of request: Request, emptyMeans: JSONValue? = .object([:]), mediaTypes: [String] = ["application/json"]) async throws -> JSONValue {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limit: limit)
        }
        guard buffer.readableBytes > 0 else {
            guard let emptyMeans else {
                throw APIError(.badRequest, .invalidRequest, "\(request.method) \(request.uri.path) needs a JSON body; openapi/scenariod.yaml describes it.")
            }
            return emptyMeans
        }
        if let contentType = request.headers[.contentType], !mediaTypes.contains(mediaType(of: contentType)) {
            throw APIError(.unsupportedMediaType, .unsupportedMediaType,
                           "\(request.method) \(request.uri.path) takes a JSON body sent as Content-Type: \(mediaTypes.joined(separator: " or ")), not '\(contentType)'; with curl, send it with --json '{…}' (or -H 'Content-Type: application/json' -d '{…}': -d alone says application/x-www-form-urlencoded).")
        }
        let data = Data(buffer.readableBytesView)
        if let depth = nestingDepth(of: data, exceeding: depthLimit) {
            throw APIError(.badRequest, .tooDeep, "the request body nests arrays and objects \(depth) or more deep; the limit is \(depthLimit).")
        }
        do {
            return try JSONValue(strictJSON: data)
        } catch {
            throw APIError(.badRequest, .malformedJSON, "the request body is not valid JSON (RFC 8259): \(error).")
        }
    }

    /// A `Content-Type`'s media type, without its parameters, in lower case: `application/json; charset=utf-8` is
    /// `application/json`.
    static func mediaType(of contentType: String) -> String {
        // What every client sends, without Foundation's trimming and lower-casing (1.3 % of the test benchmark).
        if contentType == "application/json" { return contentType }
        return contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// The body decoded as `T`, whose JSON object may hold only `fields`.
    /// - Parameter emptyMeans: What an empty body stands for, or nil when a body is required.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, fields: [String], required: [String],
                                     emptyMeans: JSONValue? = .object([:])) async throws -> T {
        try decode(type, from: try await value(of: request, emptyMeans: emptyMeans), fields: fields, required: required)
    }

    /// ``decode(_:from:fields:required:emptyMeans:)`` of a body already read.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, fields: [String], required: [String]) throws -> T {
        guard case .object(let object) = value else {
            throw APIError(.badRequest, .invalidRequest, "the request body must be a JSON object with \(fields.joined(separator: ", ")), got \(value.typeName).")
        }
        for key in object.keys.sorted() where !fields.contains(key) {
            throw APIError(.badRequest, .unknownField, "the request body has the unknown field '\(VisibleText.showing(key))'; allowed: \(fields.joined(separator: ", ")).")
        }
        // No body field of the API takes null; an optional one is left out instead (found by the fuzzer: an
        // "id": null created a session with a generated id).
        for key in object.keys.sorted() where object[key] == .null {
            throw APIError(.badRequest, .invalidRequest, "the field '\(key)' is null; give it a value or leave it out.")
        }
        for key in required where object[key] == nil {
            throw APIError(.badRequest, .invalidRequest, "the request body needs the field '\(key)'.")
        }
        do {
            return try JSONDecoder.services.decode(T.self, from: value.jsonData)
        } catch let DecodingError.typeMismatch(expected, context), let DecodingError.valueNotFound(expected, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError(.badRequest, .invalidRequest, "the field '\(field)' must be \(describe(expected)).")
        } catch let DecodingError.dataCorrupted(context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError(.badRequest, .invalidRequest, "the field '\(field)' is invalid: \(context.debugDescription)")
        } catch {
            throw APIError(.badRequest, .invalidRequest, "the request body could not be read: \(error)")
        }
    }

    /// The depth reached once it passes `limit`, or nil when it never does. Brackets inside strings do not count.
    static func nestingDepth(of data: Data, exceeding limit: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return depth }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Date.Type: "an ISO 8601 instant such as 2026-11-01T09:00:00Z"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default: "of type \(type)"
        }
    }
}
