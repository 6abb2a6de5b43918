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
