public import Services

/// A network-fake rule: a request matcher and what a matching request gets, in order.
public struct Route: Sendable {
    /// What to do when the last outcome has been used.
    public enum SequenceEnd: String, Sendable, CaseIterable {
        /// Every later request gets the last outcome again.
        case `repeat`
        /// Start again from the first outcome.
        case cycle
    }

    /// Unique within a scenario; names the route in the journal and in near-miss explanations.
    public var name: String
    /// Which requests this route answers.
    public var matcher: RequestMatcher
    /// What successive matching requests get; empty only for a live route.
    public var outcomes: [RouteOutcome]
    /// What happens after the last outcome.
    public var afterLast: SequenceEnd
    /// Whether matching requests pass through to the live network instead of getting an outcome.
    public private(set) var isLive = false

    /// Creates a route.
    public init(name: String, matcher: RequestMatcher, outcomes: [RouteOutcome], afterLast: SequenceEnd = .repeat) {
        precondition(!outcomes.isEmpty, "a route needs at least one outcome")
        self.name = name
        self.matcher = matcher
        self.outcomes = outcomes
        self.afterLast = afterLast
    }

    /// A route whose matching requests go to the live network: mixed mode, one route real, the rest fake.
    public static func live(name: String, matcher: RequestMatcher) -> Route {
        Route(name: name, matcher: matcher)
    }

    private init(name: String, matcher: RequestMatcher) {
        self.name = name
        self.matcher = matcher
        self.outcomes = []
        self.afterLast = .repeat
        self.isLive = true
    }

    /// The outcome for the `index`-th matching request (0-based); not for a live route.
    public func outcome(at index: Int) -> RouteOutcome {
        switch afterLast {
        case .repeat: outcomes[min(index, outcomes.count - 1)]
        case .cycle: outcomes[index % outcomes.count]
        }
    }
}

/// What one matching request gets: a response or a transport fault, either after a delay on the session's clock.
public struct RouteOutcome: Sendable {
    /// A response, or the transport error to throw instead.
    public enum Result: Sendable {
        case response(NetworkResponse)
        case fault(TransportError)
    }

    /// The response or the fault.
    public var result: Result
    /// How long the session's clock must move before the result is delivered.
    public var delay: Duration

    /// Creates an outcome.
    public init(_ result: Result, delay: Duration = .zero) {
        self.result = result
        self.delay = delay
    }
}
