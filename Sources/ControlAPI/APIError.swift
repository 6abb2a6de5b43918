/// The body of every error response: a stable machine-readable code and a sentence saying what to do.
public struct APIErrorBody: Codable, Sendable, Hashable, Error, CustomStringConvertible {
    /// Stable codes, e.g. `unknownSession`, `malformedJSON`, `bodyTooLarge`.
    public var code: String
    /// What went wrong, where, and what to do.
    public var message: String

    /// Creates an error body.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }
}
