import Foundation

extension JSONValue {
    /// A name as one token of a JSON pointer (RFC 6901): `~` becomes `~0` and `/` becomes `~1`.
    public static func pointerToken(_ name: String) -> String {
        // Most names need no escape, and Foundation's replacing costs more than building a pointer (profiled: explore
        // writes a pointer for each argument it takes from the state).
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        return name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The name a JSON pointer token stands for: ``pointerToken(_:)`` undone.
    public static func name(ofPointerToken token: some StringProtocol) -> String {
        // Most tokens have no escape, and Foundation's replacing costs more than the rest of a lookup (profiled);
        // so does its `contains` of a string, which is why the check looks for the byte.
        guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
        return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    /// The value at JSON pointer `pointer` (RFC 6901: `/user/age`, `/items/0`, `~1` for `/`), or nil when there is none.
    public func value(at pointer: String) -> JSONValue? {
        // Not `pointer.isEmpty ? self : nil`: there `nil` is the literal of JSONValue's own `.null`.
        guard pointer.hasPrefix("/") else { return pointer.isEmpty ? self : Optional.none }
        var current = self
        // Token by token, with no array of them: properties read pointers after every step of a walk (profiled).
        var rest = pointer.utf8.dropFirst()
        while true {
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let token = Self.name(ofPointerToken: Substring(rest[..<end]))
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
            guard end < rest.endIndex else { return current }
            rest = rest[rest.index(after: end)...]
        }
    }

    /// The text a value matcher compares: a string as it is, anything else as JSON (`5`, `true`, `{"a":1}`).
    public var matchText: String {
        if case .string(let text) = self { return text }
        return String(decoding: jsonData, as: UTF8.self)
    }

    /// Where this value first fails to contain `pattern` (``contains(_:)``): the JSON pointer of the place and what
    /// each side has there, or nil when it contains it.
    public func firstDifference(from pattern: JSONValue, at pointer: String = "") -> (pointer: String, expected: String, actual: String)? {
        switch (self, pattern) {
        case (.object(let actual), .object(let expected)):
            for key in expected.keys.sorted() {
                let place = pointer + "/" + Self.pointerToken(key)
                guard let value = actual[key] else { return (place, expected[key]!.matchText, "(absent)") }
                if let difference = value.firstDifference(from: expected[key]!, at: place) { return difference }
            }
            return nil
        case (.array(let actual), .array(let expected)) where actual.count == expected.count:
            for (index, (value, wanted)) in zip(actual, expected).enumerated() {
                if let difference = value.firstDifference(from: wanted, at: "\(pointer)/\(index)") { return difference }
            }
            return nil
        default:
            return contains(pattern) ? nil : (pointer, pattern.matchText, matchText)
        }
    }
}
