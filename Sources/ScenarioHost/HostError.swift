/// Why the host refused a request: a stable, machine-readable code and a sentence that says what to do.
public struct HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable codes; clients switch on these, so existing ones never change meaning.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        case unknownScenario
        case invalidScenario
        case unknownSession
        case sessionExists
        case invalidSessionID
        case unknownAction
        case invalidArguments
        case unknownField
        case unknownKey
        case invalidKey
        case storeFailed
        case clockNotMovable
        case clockMoveTooLong
        case notRecording
        case recordingTooLong
        case scenarioExists
        case invalidScenarioName
        case saveFailed
        case unknownService
        case serviceIsLive
        case invalidServiceState
        case tooManySessions
        case tooManySubscribers
        case tooMuchHeld
        case invalidOverrides
        case unknownRoute
        case unknownStream
        case streamFull
        case liveStream
        case notRewindable
        case unknownStep
        case notSavable
        case modelEscaped
    }

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
