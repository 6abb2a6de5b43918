public import ControlAPI

/// Why a control API call failed.
public enum ScenarioClientError: Error, Sendable, CustomStringConvertible {
    /// No daemon accepted the connection: nothing was sent, nothing was done.
    case daemonUnreachable(socket: String, reason: String)
    /// The request was sent and no answer came (a timeout, or the connection closed). A request that changes
    /// state (`mayHaveBeenApplied`) may have been applied.
    case noAnswer(socket: String, reason: String, mayHaveBeenApplied: Bool)
    /// The daemon refused the request; `body.code` is stable, `body.message` says what to do.
    case api(status: Int, body: APIErrorBody)
    /// The daemon answered something this client cannot read (a version mismatch, most likely).
    case unexpectedResponse(status: Int, detail: String)

    public var description: String {
        switch self {
        case .daemonUnreachable(let socket, let reason):
            "no daemon answers at \(socket): \(reason). Start one with `scenariod --scenario NAME` or `systemctl start scenariod@NAME` (`systemctl status scenariod@NAME` says why one stopped), or pass --socket PATH."
        case .noAnswer(let socket, let reason, let mayHaveBeenApplied):
            "the daemon at \(socket) got the request but gave no answer: \(reason)."
                + (mayHaveBeenApplied ? " The request may have been applied; check before repeating it." : "")
                + " Is the daemon stopped or overloaded (systemctl status)? --timeout or SCENARIOD_TIMEOUT gives it longer."
        case .api(_, let body):
            body.message
        case .unexpectedResponse(let status, let detail):
            "the daemon answered \(status) with something unexpected: \(detail)"
        }
    }

    /// The API error code, when the daemon refused the request.
    public var code: APIErrorCode? {
        if case .api(_, let body) = self { return body.code }
        return nil
    }
}
