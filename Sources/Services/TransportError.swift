/// Why a request got no HTTP response at all. An HTTP error status is not a transport error: it is a response.
/// The raw values are the names scenario files and the journal use.
public enum TransportError: String, Error, Sendable, Hashable, CaseIterable {
    /// No response arrived in time.
    case timeout
    /// The connection was closed or reset before the response was complete.
    case connectionReset
    /// Nothing listens at the destination (a fake network answers unmatched requests with this).
    case connectionRefused
    /// There is no network path at all.
    case offline
    /// The caller's task was cancelled while the request was in flight.
    case cancelled
}

extension TransportError: CustomStringConvertible {
    /// A short, human sentence, fit for showing to a user of the Model.
    public var description: String {
        switch self {
        case .timeout: "The request timed out."
        case .connectionReset: "The connection was reset."
        case .connectionRefused: "The server refused the connection."
        case .offline: "The network is offline."
        case .cancelled: "The request was cancelled."
        }
    }
}
