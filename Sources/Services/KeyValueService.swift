public import Foundation

/// A store of JSON-encoded values by key. Typed access is in the extension below; implementations store bytes.
public protocol KeyValueService: Sendable {
    /// Every key that has a value, sorted.
    func keys() async throws -> [String]
    /// The JSON bytes stored under `key`, or nil.
    func data(forKey key: String) async throws -> Data?
    /// Stores JSON bytes under `key`, replacing any earlier value.
    func setData(_ data: Data, forKey key: String) async throws
    /// Removes the value under `key`; removing a missing key is not an error.
    func removeValue(forKey key: String) async throws
}

extension KeyValueService {
    /// Decodes the value under `key` as `T`, or returns nil when there is none.
    public func value<T: Decodable>(_ type: T.Type, forKey key: String) async throws -> T? {
        guard let data = try await data(forKey: key) else { return nil }
        return try JSONDecoder.services.decode(T.self, from: data)
    }

    /// Encodes `value` as JSON and stores it under `key`.
    public func set<T: Encodable>(_ value: T, forKey key: String) async throws {
        try await setData(JSONEncoder.services.encode(value), forKey: key)
    }
}

extension JSONEncoder {
    /// The encoding every part of scenariod uses: sorted keys and ISO 8601 dates that keep their fraction of a second, so equal values give equal bytes.
    public static var services: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .instantText
        return encoder
    }
}

extension JSONDecoder {
    /// The decoding that matches ``JSONEncoder/services``.
    public static var services: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .strictISO8601
        return decoder
    }
}
