import ControlAPI
import Services

/// The rules for client-chosen names (session ids, names of recorded scenarios): safe in URL paths, file names
/// and journal fields, and never a path that leaves its directory.
enum SafeName {
    static let maxLength = 64

    static func validate(_ name: String, what: String = "session id", code: HostError.Code = .invalidSessionID) throws(HostError) {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        let first = name.unicodeScalars.first
        let startsWell = first.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) } ?? false
        guard name.count <= maxLength, allowed, startsWell else {
            throw HostError(code, "\(what) '\(VisibleText.showing(name.prefix(80)))' is not allowed; use 1 to \(maxLength) letters, digits, '.', '_' or '-', starting with a letter or digit.")
        }
    }
}

/// The rules for key-value keys: any text a client likes, including `/` and `..` (keys are never paths), but not
/// empty, at most 1,024 characters, and no control characters (a NUL would cut the key short in SQLite). The
/// OpenAPI document states the same as a pattern.
enum KeyName {
    static let maxLength = 1_024

    static func validate(_ key: String) throws(HostError) {
        let control = key.unicodeScalars.contains { $0.properties.generalCategory == .control }
        guard !key.isEmpty, key.unicodeScalars.count <= maxLength, !control else {
            guard !key.isEmpty else {
                throw HostError(.invalidKey, "the key is empty; a key is 1 to \(maxLength) characters without control characters.")
            }
            let shown = VisibleText.showing(String(key.unicodeScalars.prefix(80)))
            throw HostError(.invalidKey, "key '\(shown)' is not allowed; use 1 to \(maxLength) characters without control characters.")
        }
    }
}
