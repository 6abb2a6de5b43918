import Fakes
import Foundation
import Logging
import ScenarioFormat
import Services

// The journal of the Model's requests and the events a session publishes.
extension Session {
    // MARK: Journal and events

    /// The journal: every request the Model made, oldest first, bounded.
    public func requestJournal() -> RequestJournal { journal }

    /// How many requests each route answered (every route of the scenario, 0 for one none reached), how many matched
    /// none and how many went to the live network, since the session started, was reset or its journal was cleared.
    public func requestCounts() -> (routes: [String: Int], unmatched: Int, passedThrough: Int) {
        var routes = Dictionary(uniqueKeysWithValues: scenario.routes.map { ($0.name, 0) })
        routes.merge(journal.answered) { _, answered in answered }
        return (routes, journal.unmatchedCount, journal.passedThroughCount)
    }

    /// The journal, or only its entries that matched no route, each entry as its JSON: a client's read of the
    /// journal, which encodes each entry once however often it is read.
    public nonisolated func encodedJournal(unmatchedOnly: Bool = false) -> EncodedJournal {
        journaling.encoded(unmatchedOnly: unmatchedOnly)
    }

    /// The journal's body for a read, as `assemble` writes it from ``encodedJournal(unmatchedOnly:)``, kept until the
    /// journal next changes: reads of an unchanged journal cost what sending it costs.
    public nonisolated func journalBody<Body: Sendable>(unmatchedOnly: Bool = false, assemble: (EncodedJournal) -> Body) -> Body {
        journaling.body(unmatchedOnly: unmatchedOnly, assemble: assemble)
    }

    /// Empties the journal.
    public func clearJournal() async {
        await takeTurn()
        defer { endTurn() }
        journaling.clear()
        await remember(.clearJournal)
        logger.info("journal cleared")
    }

    /// A stream of this session's events from now on, numbered; it ends when the session is deleted.
    /// - Parameter lastEventID: The id of the last event a reconnecting client saw: the stream then starts with the
    ///   retained events after it, or says there is a gap.
    /// - Throws: ``HostError`` `.tooManySubscribers` past the host's limits (``HostLimits``).
    public func eventStream(after lastEventID: Int? = nil) async throws(HostError) -> EventSubscription {
        let stream = try events.subscribe(session: id, after: lastEventID)
        // From now on a change must be told from the state the watcher starts from.
        if lastState == nil, let state = try? await live().state(), lastState == nil { lastState = state }
        return stream
    }

    /// A summary for listings.
    public func info() async throws(HostError) -> SessionInfo {
        SessionInfo(id: id, scenario: scenario.name, model: scenario.model, now: try await now(),
                    requests: journal.entries.count, unmatchedRequests: journal.unmatched.count, escapes: escapes, held: held.now)
    }

    nonisolated func record(_ exchange: NetworkExchange, of generation: Int) {
        switch journaling.record(exchange, of: generation) {
        case .stale, .completed(false), .streamed(false): return
        case .streamed(true):
            events.publish(.streamChanged(exchange: exchange))
            return
        case .added: break
        case .completed(true):
            // A delayed answer delivered: it completed the pending entry logged when the request arrived.
            logger.debug("\(exchange.method) \(exchange.url) delivered (\(exchange.status.map { "\($0)" } ?? exchange.fault ?? ""))")
            events.publish(.requestJournaled(exchange: exchange))
            return
        }
        var metadata: Logger.Metadata = ["http_method": "\(exchange.method)", "http_url": "\(exchange.url)"]
        // A request a client sent from outside says so, so the log never reads as the Model's.
        let request = "\(exchange.method) \(exchange.url)\(exchange.outside == true ? " (sent from outside)" : "")"
        let answer = (exchange.status.map { "\($0)" } ?? exchange.fault ?? exchange.outcome ?? "")
            + (exchange.deliversAt.map { ", pending until \(InstantText.format($0))" } ?? "")
        if let service = exchange.service {
            logger.info("\(service): \(exchange.method) (\(answer))", metadata: metadata)
        } else if exchange.route == nil, let condition = exchange.condition {
            logger.info("\(request) answered by the network conditions \(condition) (\(answer))", metadata: metadata)
        } else if let route = exchange.route {
            metadata["route"] = "\(route)"
            logger.info("\(request) → route \(route) (\(answer))", metadata: metadata)
        } else if exchange.live == true {
            // Not a miss: a live or record scenario sends what no route answers to the network, as it says.
            let what = scenario.network.mode == .record ? "recorded" : "answered by the live network"
            logger.info("\(request) \(what) (\(answer))", metadata: metadata)
        } else {
            // The log never shows a credential the request carried; the journal, which tests read, keeps it.
            let closest = exchange.nearMisses?.first.map { "; \($0.redactingSecrets().explanation)" } ?? ""
            logger.warning("\(request) matched no route\(closest)", metadata: metadata)
        }
        events.publish(.requestJournaled(exchange: exchange))
    }

    @discardableResult
    func publishStateIfChanged() async throws(HostError) -> ModelState {
        let runtime = try live()
        for definition in serviceDefinitions {
            guard let fake = runtime.fakes[definition.name] else { continue }
            let version = fake.version()
            if publishedServiceVersions[definition.name, default: 0] != version {
                publishedServiceVersions[definition.name] = version
                events.publish(.serviceChanged(service: definition.name, state: definition.encode(fake.state())))
            }
        }
        let state = await runtime.state()
        // Called once the Model has settled (after an operation's work, or a running clock's tick).
        setSettledState(state)
        if state != lastState {
            lastState = state
            events.publish(.stateChanged(state: state))
        }
        return state
    }
}
