/// A session's server-sent events.
extension ControlClient {
    /// The session's server-sent events, the current state first, until the session is deleted or the daemon stops.
    /// - Parameters:
    ///   - session: The session whose events to follow.
    ///   - lastEventID: The ``ServerSentEvent/id`` of the last event seen, to resume after a dropped connection: the
    ///     stream then starts with the events missed, or with a `gap` event and the current state when they are no
    ///     longer retained. Nil starts from the current state.
    public func events(session: String = defaultSession, after lastEventID: Int? = nil) async throws -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let resume = lastEventID.map { "?lastEventId=\($0)" } ?? ""
        let response = try await transport.send(ControlRequest(method: "GET", path: sessionPath(session, "/events") + resume, streaming: true))
        guard response.status == 200 else { throw try await error(from: response) }
        return ServerSentEvent.parse(response.body)
    }
}
