public import ControlAPI
public import Services

/// A session's network: its journal, its conditions and the streamed answers its Model reads.
extension ControlClient {
    /// The session's journal: every request its Model made (and what the fakes of a team's services journaled),
    /// oldest first, up to the journal's capacity.
    public func journal(session: String = defaultSession) async throws -> JournalBody { try await get(sessionPath(session, "/journal")) }
    /// What the session's network is switched into.
    public func networkConditions(session: String = defaultSession) async throws -> NetworkConditionsBody {
        try await get(sessionPath(session, "/network/conditions"))
    }
    /// Switches the session's network: offline, into a fault, or adding a delay to every answer; `.init()` switches
    /// it back. A reset does too.
    @discardableResult
    public func setNetworkConditions(_ conditions: NetworkConditionsBody, session: String = defaultSession) async throws -> NetworkConditionsBody {
        try await send("PUT", sessionPath(session, "/network/conditions"), body: conditions)
    }

    /// How many requests each route answered (and how many matched none) since the session started, was reset or
    /// its journal was cleared.
    public func requestCounts(session: String = defaultSession) async throws -> RequestCountsBody {
        try await get(sessionPath(session, "/journal/counts"))
    }
    /// The requests that matched no route, each with its near misses: the closest routes and where each differed.
    public func unmatchedRequests(session: String = defaultSession) async throws -> JournalBody {
        try await get(sessionPath(session, "/journal/unmatched"))
    }
    /// Empties the session's journal and its request counts; the Model and its state are untouched.
    public func clearJournal(session: String = defaultSession) async throws {
        try await sendExpectingNoContent("POST", sessionPath(session, "/journal/clear"))
    }

    /// Sends a request through the session's network from outside, exactly as its Model's network service would
    /// (routes, sequences, templating, conditions, faults, delays, live routes), journaled as sent from outside.
    /// Returns the response or the transport error, with the request's journal entry. An answer that waits on the
    /// session's clock is waited for, unless `request.wait` is false: then it comes back `pending`, to read later
    /// with ``sentRequest(_:session:)``.
    public func sendRequest(_ request: SendRequestBody, session: String = defaultSession) async throws -> SentRequestBody {
        try await send("POST", sessionPath(session, "/network/requests"), body: request)
    }
    /// A request sent with `wait` false, by its journal sequence number: its answer, or still `pending`.
    public func sentRequest(_ sequence: Int, session: String = defaultSession) async throws -> SentRequestBody {
        try await get(sessionPath(session, "/network/requests/\(sequence)"))
    }

    /// The streamed answers the Model is reading now, oldest first, each with how far it has got.
    public func streams(session: String = defaultSession) async throws -> [StreamBody] {
        try await (get(sessionPath(session, "/streams")) as StreamListBody).streams
    }
    /// Pushes an event (or, with `text`, raw bytes) into open stream `stream`, as if its server sent it now; returns
    /// the Model's state once it has read it.
    @discardableResult
    public func pushToStream(_ stream: Int, _ push: PushToStreamRequest, session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/streams/\(stream)/push"), body: push)
    }
    /// Ends open stream `stream`: closed by its server, or (with `fault`) broken off; returns the Model's state once it
    /// has seen the end.
    @discardableResult
    public func closeStream(_ stream: Int, fault: TransportError? = nil, session: String = defaultSession) async throws -> JSONValue {
        try await closeStream(stream, CloseStreamRequest(fault: fault?.rawValue), session: session)
    }
    /// Ends open stream `stream` as `request` says (a fault, or a WebSocket's close frame); returns the Model's state.
    @discardableResult
    public func closeStream(_ stream: Int, _ request: CloseStreamRequest, session: String = defaultSession) async throws -> JSONValue {
        try await send("POST", sessionPath(session, "/streams/\(stream)/close"), body: request)
    }
    /// Closes open WebSocket `stream` from the server's side with a close frame; returns the Model's state once it
    /// has seen the close.
    @discardableResult
    public func closeWebSocket(_ stream: Int, code: Int = 1000, reason: String = "", session: String = defaultSession) async throws -> JSONValue {
        try await closeStream(stream, CloseStreamRequest(code: code, reason: reason), session: session)
    }
}
