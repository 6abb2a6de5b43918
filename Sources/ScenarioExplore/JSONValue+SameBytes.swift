import Services

extension JSONValue {
    /// Whether this value and `other`, both parsed from JSON by the same parser (so the same bytes give the same
    /// cases), encode to the same bytes, without encoding them: as `==`, but strings (and
    /// object keys) compared by their UTF-8, since Swift's `==` takes canonically equivalent strings as equal, and
    /// doubles by their bits, since `==` takes 0 and -0 as equal. A replay's state must be the same bytes as its
    /// walk's; encoding both to compare them was a twentieth of an exploration (profiled).
    func encodesAsSameBytes(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): return a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.encodesAsSameBytes(as: $1) }
        case let (.object(a), .object(b)):
            return a.count == b.count && a.allSatisfy { key, value in
                guard let index = b.index(forKey: key) else { return false }
                let (otherKey, otherValue) = b[index]
                return key.utf8.elementsEqual(otherKey.utf8) && value.encodesAsSameBytes(as: otherValue)
            }
        default: return false
        }
    }
}
