import Foundation

/// Credentials in bodies: the field names whose values are secrets wherever they appear, so recordings and logs
/// leave them out.
extension JSONValue {
    /// Field names (compared without case, `_` or `-`) whose values are credentials.
    public static let secretFieldNames: Set<String> = [
        "password", "passwd", "passphrase", "secret", "clientsecret", "token", "accesstoken", "refreshtoken", "idtoken",
        "sessiontoken", "apikey", "authorization", "otp",
    ]

    /// Whether `name` is one of ``secretFieldNames`` (`access_token`, `accessToken` and `Access-Token` all are).
    public static func isSecretField(_ name: String) -> Bool {
        secretFieldNames.contains(String(name.lowercased().filter { $0 != "_" && $0 != "-" }))
    }

    /// This value with the value of every secret field, at any depth, and of every JSON pointer in `pointers`
    /// (`/user/ssn`) replaced by `replacement`, or removed when it is nil; and whether anything was.
    public func redactingSecrets(pointers: [String] = [], replacement: JSONValue?) -> (value: JSONValue, changed: Bool) {
        var changed = false
        let paths = pointers.map { pointer in
            pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(JSONValue.name(ofPointerToken:))
        }
        func redact(_ value: JSONValue, path: [String]) -> JSONValue {
            switch value {
            case .object(let fields):
                var result: [String: JSONValue] = [:]
                for (key, field) in fields {
                    let fieldPath = path + [key]
                    if Self.isSecretField(key) || paths.contains(fieldPath) {
                        changed = true
                        if let replacement { result[key] = replacement }
                    } else {
                        result[key] = redact(field, path: fieldPath)
                    }
                }
                return .object(result)
            case .array(let items):
                return .array(items.enumerated().map { redact($1, path: path + [String($0)]) })
            default:
                return value
            }
        }
        let value = redact(self, path: [])
        return (value, changed)
    }
}
