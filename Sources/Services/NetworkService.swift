/// Sends HTTP requests. A Model builds requests and decodes responses itself; the service only moves bytes.
public protocol NetworkService: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    /// - Throws: ``TransportError`` when no response arrived; `.cancelled` when the calling task was cancelled.
    func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse
}
