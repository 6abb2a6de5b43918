/// The body of every error response: a stable machine-readable code and a sentence saying what to do.
public struct APIErrorBody: Codable, Sendable, Hashable, Error, CustomStringConvertible {
    /// The refusal's stable code (``APIErrorCode``), e.g. `unknownSession`, `malformedJSON`, `bodyTooLarge`.
    public var code: APIErrorCode
    /// What went wrong, where, and what to do.
    public var message: String

    /// Creates an error body.
    public init(code: APIErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }
}
