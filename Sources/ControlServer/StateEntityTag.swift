import Foundation
import ScenarioHost

/// The `ETag` of a state read, and whether a client's `If-None-Match` says it has that state already (then the
/// answer is `304 Not Modified` with no body): a client that polls a state pays for its bytes only when it changed.
enum StateEntityTag {
    /// A hash of the state's bytes: equal states have equal tags in every process and after a restart, where a
    /// counter could give a state after a restart the tag of a different one before it. FNV-1a, because Swift's
    /// `Hasher` is seeded anew in every process.
    static func of(_ state: ModelState) -> String {
        let hash = state.jsonData.withUnsafeBytes { bytes in
            bytes.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether `If-None-Match` header values (each a list of tags, or `*`) name `tag`. The comparison is weak, as
    /// RFC 9110 §13.1.2 asks for this header: `W/"…"` names the same state as `"…"`.
    static func isMatched(_ tag: String, byIfNoneMatch values: some Sequence<some StringProtocol>) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { candidate in
                let trimmed = candidate.trimmingCharacters(in: .whitespaces)
                return trimmed == "*" || trimmed == tag || (trimmed.hasPrefix("W/") && trimmed.dropFirst(2) == tag)
            }
        }
    }
}
