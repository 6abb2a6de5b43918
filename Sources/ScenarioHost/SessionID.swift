/// The rules for client-chosen session ids: safe in URL paths, file names and journal fields.
enum SessionID {
    static let maxLength = 64

    static func validate(_ id: String) throws(HostError) {
        let allowed = id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        guard !id.isEmpty, id.count <= maxLength, allowed, id.first != ".", id.first != "-" else {
            throw HostError(.invalidSessionID, "session id '\(id.prefix(80))' is not allowed; use 1 to \(maxLength) letters, digits, '.', '_' or '-', starting with a letter or digit.")
        }
    }
}
