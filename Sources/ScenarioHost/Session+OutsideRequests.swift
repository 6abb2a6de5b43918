import ControlAPI
public import Fakes
import Foundation
import HTTPTypes
public import Services
import SessionRuntime

// Requests a client sends through the session's network from outside, as its Model's network service sends its own.
extension Session {
    /// The most requests sent with `keep` that a session holds for ``outsideRequest(_:)``; the oldest goes first.
    public static let keptOutsideRequestLimit = 64
    /// The most response body bytes the kept requests hold; past it the oldest go first, however few are kept.
    public static let keptOutsideRequestBytes = 16 << 20

    /// Sends `request` through the session's network exactly as its Model's network service would: routes,
    /// matchers, sequences, `after:`, templating, network conditions, faults, delays and live routes. It is journaled
    /// with `outside` true, and it is a step of the history (`sendRequest`), so a rewind sends it again.
    ///
    /// Returns once the session has settled, with the answer, or still waiting for it when the answer waits on the
    /// session's clock (a route's `delay`): ``OutsideRequest/answer()`` then waits until a clock move delivers it.
    /// - Parameters:
    ///   - keep: Keep the request for ``outsideRequest(_:)`` to read by its journal sequence number (the
    ///     newest ``keptOutsideRequestLimit`` are kept, their answers' bodies at most ``keptOutsideRequestBytes``).
    ///   - streaming: Given (a session endpoint's client), a streamed answer's head and chunks go to it as the clock
    ///     delivers them rather than into the answer; it returns false once its client is gone, which ends the stream.
    /// - Throws: ``HostError`` `.tooMuchHeld`, or `.unknownSession` for a deleted session.
    public func sendFromOutside(_ request: NetworkRequest, keep: Bool = false,
                                streaming: (@Sendable (NetworkStreamPart) -> Bool)? = nil) async throws(HostError) -> OutsideRequest {
        try admit("send \(request.head.method) \(request.url)")
        let known = await takeTurn()
        defer { endTurn() }
        let sent = try await sendNow(request, keep: keep, streaming: streaming)
        try await settledStep(.sendRequest(request), known: known, "the request sent from outside")
        return sent
    }

    /// The origins the session's routes name, in the order they are tried (``/Fakes/RouteOrigin``): where a session
    /// endpoint sends a request made to its own address.
    public func routeOrigins() async throws(HostError) -> [RouteOrigin] {
        await (try live()).network.routeOrigins()
    }

    /// A request sent with `keep`, by its journal sequence number.
    /// - Throws: ``HostError`` `.unknownRequest` when the session keeps no such request.
    public func outsideRequest(_ sequence: Int) throws(HostError) -> OutsideRequest {
        _ = try live()
        outsideRequests.countArrivedAnswers()
        held.set(.sent, to: outsideRequests.bytes)
        guard let sent = outsideRequests.kept(sequence) else {
            let kept = outsideRequests.keptSequences
            throw HostError(.unknownRequest, "session '\(id)' keeps no request \(sequence) sent from outside with \"wait\": false; it keeps the newest \(Self.keptOutsideRequestLimit) of those (at most \(Self.keptOutsideRequestBytes >> 20) MiB of answers) since its start or last reset (\(kept.isEmpty ? "none now" : "now \(kept.map(String.init).joined(separator: ", "))")).")
        }
        return sent
    }

    /// The journal's entry `sequence` as it stands now, or nil when the journal no longer holds it.
    public nonisolated func journalEntry(_ sequence: Int) -> NetworkExchange? {
        journaling.journal.entries.last { $0.sequence == sequence }
    }

    /// Sends `request`, holding the turn already, and returns once the session has settled.
    func sendNow(_ request: NetworkRequest, keep: Bool,
                 streaming: (@Sendable (NetworkStreamPart) -> Bool)? = nil) async throws(HostError) -> OutsideRequest {
        let runtime = try live()
        let sent = OutsideRequest()
        await runtime.clock.spawnAndSettle { [network = runtime.network] in
            sent.finish(await network.sendFromOutside(request, arrived: { sent.arrive($0) }, streaming: streaming))
        }
        // The session's work was stopped before the request arrived (it was deleted meanwhile): nothing was sent.
        guard sent.arrived != nil else {
            throw HostError(.unknownSession, "session '\(id)' was deleted as the request to \(request.url) was sent; nothing was sent.")
        }
        outsideRequests.add(sent, keep: keep)
        held.set(.sent, to: outsideRequests.bytes)
        return sent
    }

    /// Ends a step that gave the Model nothing to do: its state is the one it was (`known`), and the step is kept.
    func settledStep(_ change: SessionHistory.Change, known: ModelState?, _ step: String) async throws(HostError) {
        setSettledState(known)
        let escaped = reportEscapes(during: step)
        await remember(change)
        try failOnEscapes(escaped, during: step)
    }
}
