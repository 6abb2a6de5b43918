package import Services

/// An answer worked out from each request by something the scenario declares (a GraphQL endpoint's schema and
/// data) rather than written out: the routed network asks it once a request has matched its route.
package protocol RequestAnswerer: Sendable {
    /// A session's own state for this answerer (a GraphQL endpoint's data, which mutations change), made when the
    /// session first asks it: a new session, a reset and a rewind's replay each start from the scenario's.
    func makeState() -> any Sendable

    /// What `request` gets, in the session whose state `state` is.
    func answer(_ request: NetworkRequest, state: any Sendable) async -> ComputedAnswer
}

/// A response an answerer worked out, and why it refused the request when it did (journaled as a near miss).
package struct ComputedAnswer: Sendable {
    /// The response the Model receives.
    package var response: NetworkResponse
    /// For a request the answerer could not answer as asked (a query that does not validate): what it expected,
    /// where, and what the request had.
    package var refusal: NearMiss.Difference?

    package init(_ response: NetworkResponse, refusal: NearMiss.Difference? = nil) {
        self.response = response
        self.refusal = refusal
    }
}

/// An answerer that also holds WebSocket conversations (GraphQL over `graphql-transport-ws`): it answers each of the
/// client's messages with messages due at offsets from it, tagged so a later message can withdraw those not yet sent.
package protocol SocketAnswerer: RequestAnswerer {
    /// A new conversation's own state (what it has been told, what it has open).
    func makeConversation() -> any Sendable

    /// The server's answer to the client's `message` in `conversation`, in the session whose state is `state`.
    func reply(to message: WebSocketMessage, conversation: any Sendable, state: any Sendable) async -> SocketReply
}

/// What the server does on a client's message: sends messages (each at an offset from it), withdraws those of a
/// tag still to come, or closes the connection.
package struct SocketReply: Sendable {
    /// A message and when, with the tag that can withdraw it (a subscription's id).
    package struct Send: Sendable {
        package var offset: Duration
        package var message: WebSocketMessage
        package var tag: String?

        package init(offset: Duration = .zero, _ message: WebSocketMessage, tag: String? = nil) {
            self.offset = offset
            self.message = message
            self.tag = tag
        }
    }

    package var sends: [Send] = []
    /// Messages of this tag not yet sent are not sent (the client completed that subscription).
    package var withdraw: String?
    /// The server closes the connection, with this frame.
    package var close: WebSocketClose?

    package init(sends: [Send] = [], withdraw: String? = nil, close: WebSocketClose? = nil) {
        self.sends = sends
        self.withdraw = withdraw
        self.close = close
    }
}
