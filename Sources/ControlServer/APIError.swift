package import ControlAPI
import HTTPTypes
import Hummingbird
package import ScenarioHost

/// An error the control API answers with: an HTTP status, a stable code and a message. Every failure a client
/// can cause becomes one of these, rendered as JSON in one place (``APIErrorMiddleware``).
package struct APIError: Error {
    var status: HTTPResponse.Status
    package var body: APIErrorBody
    /// Headers the refusal needs besides the body's (`Accept-Patch` on a 415).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: APIErrorCode, _ message: String) {
        self.status = status
        self.body = APIErrorBody(code: code, message: message)
    }

    package init(_ error: HostError) {
        self.init(error.code.status, error.code, error.message)
    }

    /// The status's number: ScenarioTesting's walks on the engine refuse a step as the API would.
    package var statusCode: Int { status.code }

    /// The JSON response that says this error.
    var response: Response {
        var response = JSONResponse.make(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, .bodyTooLarge, "the request body is over the limit of \(limit) bytes; send less.")
    }
}

extension APIErrorCode {
    /// The HTTP status the control API answers the engine's refusal (a ``HostError``) with; the server's own refusals
    /// name theirs where they are made.
    var status: HTTPResponse.Status {
        switch self {
        case .unknownScenario, .unknownSession, .unknownAction, .unknownKey, .unknownService, .unknownRoute, .unknownStream, .unknownExploration, .unknownRequest: .notFound
        case .sessionExists, .scenarioExists, .clockNotMovable, .clockMoveTooLong, .notRecording, .recordingTooLong, .serviceIsLive,
             .notRewindable, .notSavable, .modelEscaped, .streamFull, .liveStream: .conflict
        // A step past the session's history: the session exists, the request is well formed, the step is not there.
        case .invalidScenario, .invalidOverrides, .unknownStep, .explorationTooLong: .unprocessableContent
        case .invalidSessionID, .invalidArguments, .unknownField, .invalidScenarioName, .invalidKey, .invalidServiceState: .badRequest
        case .storeFailed, .saveFailed: .serviceUnavailable
        // The client side holds too much open; it can free some (429 rather than 503: the daemon is healthy).
        case .tooManySessions, .tooManySubscribers, .tooMuchHeld, .tooManyExplorations: .tooManyRequests
        case .notAllowed: .forbidden
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .noSuchEndpoint: .notFound
        case .methodNotAllowed: .methodNotAllowed
        // malformedJSON, tooDeep, invalidRequest, invalidDuration, and a code the engine does not know.
        default: .badRequest
        }
    }
}
