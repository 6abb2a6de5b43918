public import Fakes
import Foundation
import HTTPTypes
public import Services

/// The network fake: answers each request from the first route that matches it. Only a live route, or an unmatched
/// request when `unmatchedGoesUpstream` is set, reaches `upstream` (the live network); nothing else ever does.
///
/// Every request is handed to `journal` as a ``/Services/NetworkExchange``, matched or not: when it arrives, or when its
/// live answer is in. An answer with a delay is handed over twice, with the same sequence number: on arrival with
/// `pending` true, and with `pending` false once delivered. An unmatched request gets `unmatched` (a transport error) and near-miss explanations
/// naming the closest routes.
public actor RoutedNetwork: NetworkService {
    private(set) var routes: [Route] { didSet { knownOrigins = nil } }
    /// The routes' origins as ``routeOrigins()`` last worked them out, until the routes change: a session endpoint
    /// asks for them at every request.
    var knownOrigins: [RouteOrigin]?
    private let unmatched: TransportError
    let clock: any ClockService
    /// The session's work (the clock's, or a scope of its own): live answers count as its work under way.
    let scope: SessionScope

    /// The session's executor, as the clock's: what the network does is the session's work.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { scope.executor.asUnownedSerialExecutor() }
    let journal: @Sendable (NetworkExchange) async -> Void
    let upstream: (any NetworkService)?
    private let unmatchedGoesUpstream: Bool
    private var hits: [Int]
    /// The session's state of each route answered by an answerer (a GraphQL endpoint's data), by route name.
    private var answererStates: [String: any Sendable] = [:]
    private let sequence: JournalSequence
    private(set) var conditions = NetworkConditions.normal
    /// The streamed answers still open, by their exchange's sequence number (RoutedNetwork+Streams.swift).
    var streams: [Int: OpenStream] = [:]
    /// How each WebSocket the server closed was closed, by its number, for the Model to ask after its messages end.
    var closedSockets: [Int: WebSocketClose] = [:]
    /// The status of each gRPC call the server ended, by its number, until the Model reads it.
    var endedCalls: [Int: (RPCStatus, trailers: HTTPFields)] = [:]
    /// The live streams still open, each with its journal entry (RoutedNetwork+LiveStreams.swift).
    var liveStreams: [Int: NetworkExchange] = [:]

    /// The most near misses an unmatched request's journal entry lists.
    public static let nearMissLimit = 3

    /// Creates the fake.
    /// - Parameters:
    ///   - routes: Tried in order; the first match answers.
    ///   - unmatched: The transport error an unmatched request gets.
    ///   - clock: The session's clock, on which response delays are measured.
    ///   - upstream: The live network, for live routes and (with `unmatchedGoesUpstream`) unmatched requests;
    ///     when nil, a live route fails with `offline`.
    ///   - unmatchedGoesUpstream: Send requests no route matches to `upstream` instead of failing them.
    ///   - sequence: Numbers the exchanges; shared with the session's other journaled services.
    ///   - journal: Receives every exchange.
    public init(routes: [Route], unmatched: TransportError = .connectionRefused, clock: any ClockService,
                upstream: (any NetworkService)? = nil, unmatchedGoesUpstream: Bool = false,
                sequence: JournalSequence = JournalSequence(),
                journal: @escaping @Sendable (NetworkExchange) async -> Void) {
        self.sequence = sequence
        self.routes = routes
        self.upstream = upstream
        self.unmatchedGoesUpstream = unmatchedGoesUpstream
        self.unmatched = unmatched
        self.clock = clock
        scope = (clock as? VirtualClock)?.scope ?? SessionScope()
        self.journal = journal
        self.hits = Array(repeating: 0, count: routes.count)
    }

    /// Adds `route` in front of the others, or replaces the route of its name where it stands; either way its
    /// sequence starts from its first answer.
    public func setRoute(_ route: Route) {
        answererStates[route.name] = nil
        if let index = routes.firstIndex(where: { $0.name == route.name }) {
            routes[index] = route
            hits[index] = 0
        } else {
            routes.insert(route, at: 0)
            hits.insert(0, at: 0)
        }
    }

    /// Removes the route named `name`; false when there is none.
    public func removeRoute(named name: String) -> Bool {
        guard let index = routes.firstIndex(where: { $0.name == name }) else { return false }
        routes.remove(at: index)
        hits.remove(at: index)
        answererStates[name] = nil
        return true
    }

    /// The names of the routes, in the order they are tried.
    public func routeNames() -> [String] { routes.map(\.name) }

    /// Switches the network into `conditions` (``/Fakes/NetworkConditions/normal`` switches it back). The switch is a step
    /// of the session's history, not a journal entry: the journal holds requests only, so its sequence numbers and
    /// counts are the requests the Model made.
    /// - Returns: Whether the switch broke an open stream, which the Model then has to see.
    @discardableResult
    public func setConditions(_ conditions: NetworkConditions) -> Bool {
        self.conditions = conditions
        // Going offline (or into a fault) breaks the connections open now, as it would on a device.
        guard let failure = conditions.failure, !streams.isEmpty else { return false }
        breakOpenStreams(with: failure)
        return true
    }

    /// A request body as the journal keeps it: JSON in its canonical form (keys sorted, no insignificant
    /// whitespace), so two encoders that order keys differently make one journal and never read as
    /// nondeterminism; any other body as its text. Routes match the bytes as sent (a JSON matcher ignores key
    /// order anyway).
    static func journaled(_ body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        // The parser routes match with, so a body that matched as JSON is journaled as JSON.
        if let json = try? JSONValue(json: body) { return String(decoding: json.jsonData, as: UTF8.self) }
        return String(decoding: body, as: UTF8.self)
    }

    /// The conditions the network is in.
    public func currentConditions() -> NetworkConditions { conditions }

    public func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse {
        scope.checkCaller(of: "network.send")
        return try await answer(request, outside: false)
    }

    /// The answer to `request`, as the Model's network service gives it; the part a client outside the session shares
    /// (RoutedNetwork+Outside.swift). With `streaming`, a streamed answer's head and chunks go there as they come, and the
    /// response returned has no body: they are not kept twice.
    func answer(_ request: NetworkRequest, outside: Bool, arrived: @Sendable (NetworkExchange) -> Void = { _ in },
                streaming: (@Sendable (NetworkStreamPart) -> Bool)? = nil) async throws(TransportError) -> NetworkResponse {
        guard !Task.isCancelled, !scope.isClosed else { throw .cancelled }
        let matched = await match(request, outside: outside)
        switch matched {
        case .passThrough(let exchange), .outcome(_, let exchange): arrived(exchange)
        }
        switch matched {
        case .passThrough(let exchange):
            return try await passThrough(request, exchange).get()
        case .outcome(let outcome, let exchange) where outcome.stream != nil:
            // A Model that does not stream gets the whole body once the stream has ended, journaled as a stream.
            let stream = try await open(outcome, exchange)
            if let streaming {
                guard streaming(.head(stream.head)) else { return NetworkResponse(head: stream.head, body: Data()) }
                for try await chunk in stream.body {
                    // The client hung up: leaving the loop ends the stream, journaled as the Model's would be.
                    guard streaming(.chunk(chunk)) else { break }
                }
                return NetworkResponse(head: stream.head, body: Data())
            }
            var body = Data()
            for try await chunk in stream.body { body.append(chunk) }
            return NetworkResponse(head: stream.head, body: body)
        case .outcome(let outcome, let exchange):
            return try await journalAndDeliver(outcome, exchange).result.get()
        }
    }

    public func stream(_ request: NetworkRequest) async throws(TransportError) -> NetworkStream {
        scope.checkCaller(of: "network.stream")
        guard !Task.isCancelled, !scope.isClosed else { throw .cancelled }
        switch await match(request) {
        case .passThrough(let exchange):
            return try await openLive(request, exchange)
        case .outcome(let outcome, let exchange) where outcome.stream != nil && outcome.isResponse:
            return try await open(outcome, exchange)
        case .outcome(let outcome, let exchange):
            let response = try await journalAndDeliver(outcome, exchange).result.get()
            return NetworkStream(head: response.head, chunks: response.body.isEmpty ? [] : [response.body])
        }
    }

    /// What a request gets: an outcome (a route's, the conditions', or the unmatched fault), or the live network.
    enum Matched {
        case outcome(RouteOutcome, NetworkExchange)
        case passThrough(NetworkExchange)
    }

    /// Matches `request` against the conditions and the routes; the one place every request goes through.
    func match(_ request: NetworkRequest, outside: Bool = false, call: Bool = false) async -> Matched {
        var exchange = NetworkExchange(
            sequence: sequence.next(), time: await clock.now(), method: request.head.method.rawValue,
            url: request.url, headers: request.head.headerFields.map { "\($0.name): \($0.value)" },
            body: Self.journaled(request.body))
        if outside { exchange.outside = true }
        if let canonical = exchange.body, !request.body.isEmpty {
            let sent = String(decoding: request.body, as: UTF8.self)
            if sent != canonical { exchange.sentBody = sent }
        }

        if let failure = conditions.failure {
            // The session was switched offline (or into a fault): no route answers, and none counts the request.
            exchange.fault = failure.rawValue
            exchange.condition = conditions.description
            return .outcome(RouteOutcome(.fault(failure), delay: conditions.delay), exchange)
        }
        var misses: [(miss: NearMiss, fieldsMatched: Int)] = []
        var matchedIndex: Int?
        for (index, route) in routes.enumerated() {
            if let (difference, fieldsMatched) = route.matcher.firstDifference(from: request) {
                misses.append((NearMiss(route: route.name, field: difference.field,
                                        expected: difference.expected, actual: difference.actual), fieldsMatched))
                continue
            }
            matchedIndex = index
            break
        }

        var outcome: RouteOutcome
        if let index = matchedIndex {
            exchange.route = routes[index].name
            if routes[index].isOverride { exchange.override = true }
            if routes[index].isLive { return .passThrough(exchange) }
            outcome = routes[index].outcome(at: hits[index]) { [routes, hits] name in
                routes.firstIndex { $0.name == name }.map { hits[$0] } ?? 0
            }
            hits[index] += 1
            if let template = outcome.template, case .response(let response) = outcome.result {
                outcome.result = .response(template.render(over: response, request: request, now: exchange.time))
                if let script = outcome.stream, !template.chunks.isEmpty {
                    outcome.stream = template.render(script, request: request, now: exchange.time)
                }
            }
            // A WebSocket handshake opens the answerer's conversation instead (RoutedNetwork+WebSockets.swift), and a
            // gRPC call its method's (RoutedNetwork+RPC.swift).
            if let answerer = outcome.answerer, outcome.isResponse, !request.isWebSocketHandshake, !(call && answerer is any RPCAnswerer) {
                let answer = await answerer.answer(request, state: answererState(of: routes[index].name, answerer))
                outcome.result = .response(answer.response)
                if let refusal = answer.refusal {
                    exchange.nearMisses = [NearMiss(route: exchange.route ?? "", field: refusal.field, expected: refusal.expected, actual: refusal.actual)]
                }
            }
        } else if unmatchedGoesUpstream {
            return .passThrough(exchange)
        } else {
            // Stable sort: more fields agreed first, then declaration order.
            exchange.nearMisses = misses.enumerated()
                .sorted { ($1.element.fieldsMatched, $0.offset) < ($0.element.fieldsMatched, $1.offset) }
                .prefix(Self.nearMissLimit).map(\.element.miss)
            outcome = RouteOutcome(.fault(unmatched))
        }
        switch outcome.result {
        case .response(let response): exchange.status = response.head.status.code
        case .fault(let error): exchange.fault = error.rawValue
        }
        if conditions.delay > .zero {
            outcome.delay += conditions.delay
            exchange.condition = conditions.description
        }
        return .outcome(outcome, exchange)
    }

    /// The session's state of route `name`'s answerer, made on first use.
    func answererState(of name: String, _ answerer: any RequestAnswerer) -> any Sendable {
        if let state = answererStates[name] { return state }
        let state = answerer.makeState()
        answererStates[name] = state
        return state
    }

    /// Journals `exchange` and delivers `outcome`; an answer that waits on the clock is journaled as it arrives,
    /// pending, and again once delivered.
    /// Returns the exchange as last journaled.
    func journalAndDeliver(_ outcome: RouteOutcome, _ arrived: NetworkExchange) async
        -> (result: Result<NetworkResponse, TransportError>, exchange: NetworkExchange) {
        var exchange = arrived
        guard outcome.delay > .zero else {
            await journal(exchange)
            return (await deliver(outcome), exchange)
        }
        // Journaled as it arrives, pending, and again once the clock has moved far enough to deliver it.
        exchange.pending = true
        exchange.deliversAt = exchange.time.adding(outcome.delay)
        await journal(exchange)
        let result = await deliver(outcome)
        exchange.pending = false
        if case .failure(.cancelled) = result, exchange.fault != TransportError.cancelled.rawValue {
            // The Model gave up waiting (or the session was reset): what the route would have answered never arrived.
            exchange.status = nil
            exchange.fault = TransportError.cancelled.rawValue
        }
        await journal(exchange)
        return (result, exchange)
    }

    /// Waits `duration` as the server would before answering: on the session's clock, and ended (cancelled) by the
    /// session's end, so a call waiting on it does not hold the session for good.
    private func serverDelay(_ duration: Duration) async throws {
        if let virtual = clock as? VirtualClock {
            try await virtual.sleepEndingWithSession(for: duration)
        } else {
            try await clock.sleep(for: duration)
        }
    }

    /// Waits out the delay the network conditions add before a live request goes out, noting them on `exchange`.
    func delayLive(_ exchange: inout NetworkExchange) async throws(TransportError) {
        guard conditions.delay > .zero else { return }
        exchange.condition = conditions.description
        do { try await serverDelay(conditions.delay) } catch { throw .cancelled }
    }

    /// Sends `request` to the live network and journals the answer once it is in.
    private func passThrough(_ request: NetworkRequest, _ arrived: NetworkExchange) async -> Result<NetworkResponse, TransportError> {
        var exchange = arrived
        do { try await delayLive(&exchange) } catch { return .failure(error) }
        let result: Result<NetworkResponse, TransportError>
        if let upstream {
            do {
                // Counted as work under way: the session is not settled while a live answer is awaited.
                let send = { () async throws(TransportError) -> NetworkResponse in try await upstream.send(request) }
                result = .success(try await waitingForLive(send))
            } catch { result = .failure(error) }
        } else {
            result = .failure(.offline)
        }
        exchange.live = true
        switch result {
        case .success(let response): exchange.status = response.head.status.code
        case .failure(let error): exchange.fault = error.rawValue
        }
        await journal(exchange)
        return result
    }

    private func deliver(_ outcome: RouteOutcome) async -> Result<NetworkResponse, TransportError> {
        if outcome.delay > .zero {
            do { try await serverDelay(outcome.delay) } catch { return .failure(.cancelled) }
        }
        switch outcome.result {
        case .response(let response): return .success(response)
        case .fault(let error): return .failure(error)
        }
    }
}
