public import ControlAPI

/// Why the host refused a request: a stable, machine-readable code and a sentence that says what to do.
public struct HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The control API's codes: the engine refuses in the words the API answers with, one vocabulary
    /// (``/ControlAPI/APIErrorCode``).
    public typealias Code = APIErrorCode

    /// What kind of refusal this is.
    public var code: Code
    /// What went wrong and what to do, naming the session, scenario or key involved.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
