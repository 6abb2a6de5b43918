public import ControlAPI

/// Why a control API call failed.
public enum ScenarioClientError: Error, Sendable, CustomStringConvertible {
    /// Nothing answers at the socket, or the connection failed.
    case daemonUnreachable(socket: String, reason: String)
    /// The daemon refused the request; `body.code` is stable, `body.message` says what to do.
    case api(status: Int, body: APIErrorBody)
    /// The daemon answered something this client cannot read (a version mismatch, most likely).
    case unexpectedResponse(status: Int, detail: String)

    public var description: String {
        switch self {
        case .daemonUnreachable(let socket, let reason):
            "cannot reach scenariod at \(socket) (\(reason)); is it running? Start it with scenariod --scenario NAME, or pass --socket PATH."
        case .api(_, let body):
            body.message
        case .unexpectedResponse(let status, let detail):
            "the daemon answered \(status) with something unexpected: \(detail)"
        }
    }

    /// The API error code, when the daemon refused the request.
    public var code: String? {
        if case .api(_, let body) = self { return body.code }
        return nil
    }
}
