/// A refusal's stable, machine-readable code: the one vocabulary of the control API's errors, used by the engine
/// (`HostError`), the server, ScenarioClient and scenarioctl (its dashboard bridge's three refusals are here too), and
/// listed as the `code` enum of openapi/scenariod.yaml (a test holds them to each other).
///
/// A struct rather than an enum, so that a client reads a code a newer daemon added (its ``rawValue`` is kept) rather
/// than failing to read the whole refusal. Existing codes never change meaning.
public struct APIErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code as it is on the wire: `unknownSession`.
    public let rawValue: String

    /// The code `rawValue`, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Reads the code from its string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the code as its string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Whether this version of scenariod knows the code (a newer daemon may send others).
    public var isKnown: Bool { Self.allCases.contains(self) }

    /// No scenario of that name is loaded (404).
    public static let unknownScenario = APIErrorCode(rawValue: "unknownScenario")

    /// The scenario has problems, or names a Model this daemon does not run (422).
    public static let invalidScenario = APIErrorCode(rawValue: "invalidScenario")

    /// No open session has that id (404).
    public static let unknownSession = APIErrorCode(rawValue: "unknownSession")

    /// A session with that id is already open (409).
    public static let sessionExists = APIErrorCode(rawValue: "sessionExists")

    /// The session id is not letters, digits, `.`, `_` and `-`, or is over 64 characters (400).
    public static let invalidSessionID = APIErrorCode(rawValue: "invalidSessionID")

    /// The Model has no action of that name (404).
    public static let unknownAction = APIErrorCode(rawValue: "unknownAction")

    /// The action's arguments do not decode as the Model's action (400).
    public static let invalidArguments = APIErrorCode(rawValue: "invalidArguments")

    /// The request body has a field the operation does not take (400).
    public static let unknownField = APIErrorCode(rawValue: "unknownField")

    /// The key-value store has no such key (404).
    public static let unknownKey = APIErrorCode(rawValue: "unknownKey")

    /// The key is empty, too long or holds control characters (400).
    public static let invalidKey = APIErrorCode(rawValue: "invalidKey")

    /// The session's durable store could not be read or written (503).
    public static let storeFailed = APIErrorCode(rawValue: "storeFailed")

    /// The session's clock follows the system clock and cannot be moved (409).
    public static let clockNotMovable = APIErrorCode(rawValue: "clockNotMovable")

    /// A clock move woke more sleepers than its limit and stopped where it got to (409).
    public static let clockMoveTooLong = APIErrorCode(rawValue: "clockMoveTooLong")

    /// The session is not recording, so there is nothing to save (409).
    public static let notRecording = APIErrorCode(rawValue: "notRecording")

    /// The recording is over its bound (409).
    public static let recordingTooLong = APIErrorCode(rawValue: "recordingTooLong")

    /// A scenario of that name already exists (409).
    public static let scenarioExists = APIErrorCode(rawValue: "scenarioExists")

    /// The name is not a valid scenario name (400).
    public static let invalidScenarioName = APIErrorCode(rawValue: "invalidScenarioName")

    /// The scenario could not be written, or does not load once written (503, or 500).
    public static let saveFailed = APIErrorCode(rawValue: "saveFailed")

    /// The daemon's team defines no service of that name (404).
    public static let unknownService = APIErrorCode(rawValue: "unknownService")

    /// The service runs live in this session, so it has no fake state (409).
    public static let serviceIsLive = APIErrorCode(rawValue: "serviceIsLive")

    /// The service's state does not decode as its fake's state (400).
    public static let invalidServiceState = APIErrorCode(rawValue: "invalidServiceState")

    /// As many sessions are open as the daemon allows (429).
    public static let tooManySessions = APIErrorCode(rawValue: "tooManySessions")

    /// A session has as many event subscribers as it allows (429).
    public static let tooManySubscribers = APIErrorCode(rawValue: "tooManySubscribers")

    /// The sessions hold as many bytes as the daemon allows (429).
    public static let tooMuchHeld = APIErrorCode(rawValue: "tooMuchHeld")

    /// A session's scenario overrides do not resolve (422).
    public static let invalidOverrides = APIErrorCode(rawValue: "invalidOverrides")

    /// The session has no route of that name (404).
    public static let unknownRoute = APIErrorCode(rawValue: "unknownRoute")

    /// The session has no open stream of that id (404).
    public static let unknownStream = APIErrorCode(rawValue: "unknownStream")

    /// The stream holds as many unread chunks as it allows (409).
    public static let streamFull = APIErrorCode(rawValue: "streamFull")

    /// The stream is served by a live server, so it cannot be closed or written from here (409).
    public static let liveStream = APIErrorCode(rawValue: "liveStream")

    /// The session's history cannot be replayed (409).
    public static let notRewindable = APIErrorCode(rawValue: "notRewindable")

    /// The session keeps no request of that number sent from outside with `"wait": false` (404).
    public static let unknownRequest = APIErrorCode(rawValue: "unknownRequest")

    /// A session's endpoint cannot listen where it was asked to: the port is taken, or the socket's place is (409).
    public static let endpointUnavailable = APIErrorCode(rawValue: "endpointUnavailable")

    /// The session's history has no such step (422).
    public static let unknownStep = APIErrorCode(rawValue: "unknownStep")

    /// The session cannot be saved as a scenario (409).
    public static let notSavable = APIErrorCode(rawValue: "notSavable")

    /// The Model did work its session cannot see or order, under `--model-escapes fail` (409).
    public static let modelEscaped = APIErrorCode(rawValue: "modelEscaped")

    /// The connecting user may not use this daemon (403).
    public static let notAllowed = APIErrorCode(rawValue: "notAllowed")

    /// The JSON body nests deeper than the daemon reads (400).
    public static let tooDeep = APIErrorCode(rawValue: "tooDeep")

    /// The request body is not JSON (400).
    public static let malformedJSON = APIErrorCode(rawValue: "malformedJSON")

    /// The request is well formed JSON but asks for something the operation does not do (400).
    public static let invalidRequest = APIErrorCode(rawValue: "invalidRequest")

    /// A duration is not a number and a unit such as `250ms`, `2s`, `15m` or `1h30m` (400).
    public static let invalidDuration = APIErrorCode(rawValue: "invalidDuration")

    /// The request body is over the daemon's limit (413).
    public static let bodyTooLarge = APIErrorCode(rawValue: "bodyTooLarge")

    /// The request body's content type is not one the operation takes (415).
    public static let unsupportedMediaType = APIErrorCode(rawValue: "unsupportedMediaType")

    /// No endpoint has that path (404).
    public static let noSuchEndpoint = APIErrorCode(rawValue: "noSuchEndpoint")

    /// The path does not take that method (405).
    public static let methodNotAllowed = APIErrorCode(rawValue: "methodNotAllowed")

    /// The HTTP layer refused the request before an operation saw it (its status).
    public static let httpError = APIErrorCode(rawValue: "httpError")

    /// The daemon failed to answer; its journal has the details (500).
    public static let `internal` = APIErrorCode(rawValue: "internal")
    /// The bytes are not an HTTP/1.1 request the server can frame (400); the connection closes.
    public static let malformedRequest = APIErrorCode(rawValue: "malformedRequest")

    /// The request's Transfer-Encoding is not `chunked` alone (501).
    public static let unsupportedTransferEncoding = APIErrorCode(rawValue: "unsupportedTransferEncoding")

    /// The request's body did not arrive within the daemon's `--body-timeout` of its head (408).
    public static let bodyTimeout = APIErrorCode(rawValue: "bodyTimeout")

    /// `scenarioctl dashboard`'s bridge refused a request from a page of another origin (403).
    public static let foreignOrigin = APIErrorCode(rawValue: "foreignOrigin")

    /// `scenarioctl dashboard`'s bridge refused a request without its session token (401).
    public static let tokenRefused = APIErrorCode(rawValue: "tokenRefused")

    /// No exploration of that id is running or kept (404).
    public static let unknownExploration = APIErrorCode(rawValue: "unknownExploration")

    /// As many explorations run as the daemon allows at once (429).
    public static let tooManyExplorations = APIErrorCode(rawValue: "tooManyExplorations")

    /// An exploration asks for more steps than the daemon runs in one (422).
    public static let explorationTooLong = APIErrorCode(rawValue: "explorationTooLong")

    /// The daemon cannot answer: `scenarioctl dashboard`'s bridge could not reach it, or it is stopping while a
    /// request sent from outside still waits on its session's clock (503).
    public static let daemonUnavailable = APIErrorCode(rawValue: "daemonUnavailable")

    /// Every code this version of scenariod answers with, in the order openapi/scenariod.yaml lists them.
    public static let allCases: [APIErrorCode] = [
        .unknownScenario, .invalidScenario, .unknownSession, .sessionExists, .invalidSessionID,
        .unknownAction, .invalidArguments, .unknownField, .unknownKey, .invalidKey,
        .storeFailed, .clockNotMovable, .clockMoveTooLong, .notRecording, .recordingTooLong,
        .scenarioExists, .invalidScenarioName, .saveFailed, .unknownService, .serviceIsLive,
        .invalidServiceState, .tooManySessions, .tooManySubscribers, .tooMuchHeld, .invalidOverrides,
        .unknownRoute, .unknownStream, .streamFull, .liveStream, .notRewindable,
        .unknownStep, .notSavable, .modelEscaped, .notAllowed, .tooDeep,
        .malformedJSON, .invalidRequest, .invalidDuration, .bodyTooLarge, .unsupportedMediaType,
        .noSuchEndpoint, .methodNotAllowed, .httpError, .`internal`, .malformedRequest,
        .unsupportedTransferEncoding, .bodyTimeout, .foreignOrigin, .tokenRefused, .daemonUnavailable,
        .unknownExploration, .tooManyExplorations, .explorationTooLong, .unknownRequest,
        .endpointUnavailable,
    ]
}
