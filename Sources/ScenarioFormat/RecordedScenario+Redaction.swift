public import Foundation
import Services

/// How credentials are left out of what a recording writes.
extension RecordedScenario {
    /// A response body with its credentials replaced by `<redacted>`: JSON fields, or form fields
    /// (`access_token=…&…`); any other body, or one without credentials, as it was.
    public static func redactingSecrets(in body: Data, pointers: [String]) -> Data {
        if let json = try? JSONValue(json: body) {
            let (value, changed) = json.redactingSecrets(pointers: pointers, replacement: .string(Self.redacted))
            return changed ? value.jsonData : body
        }
        let text = String(decoding: body, as: UTF8.self)
        guard text.contains("="), !text.contains(where: \.isWhitespace) else { return body }
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, JSONValue.isSecretField(String(parts[0]).removingPercentEncoding ?? String(parts[0])) else {
                return String(pair)
            }
            changed = true
            return "\(parts[0])=\(Self.redacted.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "redacted")"
        }
        return changed ? Data(pairs.joined(separator: "&").utf8) : body
    }

    /// A chunk of server-sent events with the credentials in each `data:` line that is JSON replaced, as in a body.
    static func redactingSecrets(inEvents chunk: Data, pointers: [String]) -> Data {
        let text = String(decoding: chunk, as: UTF8.self)
        var changed = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("data:") else { return String(line) }
            let value = line.dropFirst(5).drop { $0 == " " }
            let redacted = redactingSecrets(in: Data(value.utf8), pointers: pointers)
            guard redacted != Data(value.utf8) else { return String(line) }
            changed = true
            return "data: " + String(decoding: redacted, as: UTF8.self)
        }
        return changed ? Data(lines.joined(separator: "\n").utf8) : chunk
    }
}
