import Foundation
public import Services
import HTTPTypes

/// The network fake: answers each request from the first route that matches it, never from the real network.
///
/// Every request is handed to `journal` as a ``NetworkExchange`` when it arrives, matched or not. An unmatched
/// request gets `unmatched` (a transport error) and near-miss explanations naming the closest routes.
public actor RoutedNetwork: NetworkService {
    private let routes: [Route]
    private let unmatched: TransportError
    private let clock: any ClockService
    private let journal: @Sendable (NetworkExchange) async -> Void
    private var hits: [Int]
    private var sequence = 0

    /// The most near misses an unmatched request's journal entry lists.
    public static let nearMissLimit = 3

    /// Creates the fake.
    /// - Parameters:
    ///   - routes: Tried in order; the first match answers.
    ///   - unmatched: The transport error an unmatched request gets.
    ///   - clock: The session's clock, on which response delays are measured.
    ///   - journal: Receives every exchange as the request arrives.
    public init(routes: [Route], unmatched: TransportError = .connectionRefused, clock: any ClockService,
                journal: @escaping @Sendable (NetworkExchange) async -> Void) {
        self.routes = routes
        self.unmatched = unmatched
        self.clock = clock
        self.journal = journal
        self.hits = Array(repeating: 0, count: routes.count)
    }

    public func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse {
        guard !Task.isCancelled else { throw .cancelled }
        sequence += 1
        var exchange = NetworkExchange(
            sequence: sequence, time: await clock.now(), method: request.head.method.rawValue,
            url: request.url, headers: request.head.headerFields.map { "\($0.name): \($0.value)" },
            body: request.body.isEmpty ? nil : String(decoding: request.body, as: UTF8.self))

        var misses: [(miss: NearMiss, fieldsMatched: Int)] = []
        for (index, route) in routes.enumerated() {
            if let (difference, fieldsMatched) = route.matcher.firstDifference(from: request) {
                misses.append((NearMiss(route: route.name, field: difference.field,
                                        expected: difference.expected, actual: difference.actual), fieldsMatched))
                continue
            }
            let outcome = route.outcome(at: hits[index])
            hits[index] += 1
            exchange.route = route.name
            switch outcome.result {
            case .response(let response): exchange.status = response.head.status.code
            case .fault(let error): exchange.fault = error.rawValue
            }
            await journal(exchange)
            return try await deliver(outcome)
        }

        // Stable sort: more fields agreed first, then declaration order.
        exchange.nearMisses = misses.enumerated()
            .sorted { ($1.element.fieldsMatched, $0.offset) < ($0.element.fieldsMatched, $1.offset) }
            .prefix(Self.nearMissLimit).map(\.element.miss)
        exchange.fault = unmatched.rawValue
        await journal(exchange)
        throw unmatched
    }

    private func deliver(_ outcome: RouteOutcome) async throws(TransportError) -> NetworkResponse {
        if outcome.delay > .zero {
            do { try await clock.sleep(for: outcome.delay) } catch { throw .cancelled }
        }
        switch outcome.result {
        case .response(let response): return response
        case .fault(let error): throw error
        }
    }
}
