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
    /// Whether a test gave this route for its session (when creating it, or while it runs) rather than the scenario.
    public var isOverride = false

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

    /// Whether the outcomes follow other routes (``RouteOutcome/after``) rather than this route's own count.
    public var isCausal: Bool { outcomes.contains { $0.after != nil } }

    /// The outcome for the `index`-th matching request (0-based), when `answered` gives how many requests each
    /// route of the scenario has answered so far; not for a live route. A causal route answers with its last
    /// outcome whose condition holds (the first has none); any other, by `index`.
    public func outcome(at index: Int, answered: (String) -> Int) -> RouteOutcome {
        if isCausal {
            return outcomes.last { outcome in outcome.after.map { answered($0.route) >= $0.times } ?? true } ?? outcomes[0]
        }
        switch afterLast {
        case .repeat: return outcomes[min(index, outcomes.count - 1)]
        case .cycle: return outcomes[index % outcomes.count]
        }
    }
}

/// What one matching request gets: a response or a transport fault, either after a delay on the session's clock.
public struct RouteOutcome: Sendable {
    /// A response, or the transport error to throw instead.
    public enum Result: Sendable {
        /// The response the Model receives.
        case response(NetworkResponse)
        /// The transport error the Model's request throws instead of a response.
        case fault(TransportError)
    }

    /// The response or the fault.
    public var result: Result
    /// How long the session's clock must move before the result is delivered.
    public var delay: Duration
    /// For a causal route: the outcome applies once route `route` has answered `times` requests (a write that
    /// changed what this read returns), whatever this route's own count.
    public var after: Condition?

    /// "After route `route` has answered `times` requests."
    public struct Condition: Sendable, Hashable {
        /// The route whose answers change this one's (`post-rating`).
        public var route: String
        /// How many of its answers it takes; at least 1.
        public var times: Int

        /// The condition that route `route` has answered `times` requests.
        public init(route: String, times: Int = 1) {
            self.route = route
            self.times = times
        }
    }

    /// For a response: the parts of it filled per request (`template: true`), or nil when it is sent as written.
    package var template: ResponseTemplate?

    /// For a response worked out per request (a GraphQL endpoint): what works it out; the outcome's own response is
    /// then only its delay's companion.
    package var answerer: (any RequestAnswerer)? {
        get { scripts?.answerer }
        set { scripts = Scripts(stream: stream, webSocket: webSocket, answerer: newValue) }
    }

    /// Whether it answers with a response rather than a fault; only a response opens a ``stream`` or ``webSocket``.
    package var isResponse: Bool {
        if case .response = result { return true }
        return false
    }
    /// For a response: its body streamed chunk by chunk on the session's clock, or nil for a body sent whole.
    /// The routed network's `send` answers a streamed route with the whole body once the stream has ended.
    public var stream: StreamScript? {
        get { scripts?.stream }
        set { scripts = Scripts(stream: newValue, webSocket: webSocket, answerer: answerer) }
    }
    /// For a WebSocket route: the server's side of the conversation. The routed network's `webSocket` connects only
    /// to a route that has one.
    public var webSocket: WebSocketScript? {
        get { scripts?.webSocket }
        set { scripts = Scripts(stream: stream, webSocket: newValue, answerer: answerer) }
    }

    /// A stream's or a WebSocket's script, or an answerer, behind one reference: most outcomes have none, and an
    /// outcome is copied into every exchange's async frames, so they cost those one word.
    private final class Scripts: Sendable {
        let stream: StreamScript?
        let webSocket: WebSocketScript?
        let answerer: (any RequestAnswerer)?
        init?(stream: StreamScript?, webSocket: WebSocketScript?, answerer: (any RequestAnswerer)? = nil) {
            guard stream != nil || webSocket != nil || answerer != nil else { return nil }
            self.stream = stream
            self.webSocket = webSocket
            self.answerer = answerer
        }
    }

    private var scripts: Scripts?

    /// Creates an outcome.
    public init(_ result: Result, delay: Duration = .zero, after: Condition? = nil, stream: StreamScript? = nil,
                webSocket: WebSocketScript? = nil) {
        self.result = result
        self.delay = delay
        self.after = after
        self.scripts = Scripts(stream: stream, webSocket: webSocket)
    }

    /// Creates an outcome whose response is filled per request (the scenario parser's).
    package init(_ result: Result, delay: Duration = .zero, after: Condition? = nil, template: ResponseTemplate?,
                 stream: StreamScript? = nil, webSocket: WebSocketScript? = nil) {
        self.init(result, delay: delay, after: after, stream: stream, webSocket: webSocket)
        self.template = template
    }
}
