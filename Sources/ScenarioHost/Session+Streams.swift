import ControlAPI
import Fakes
public import Foundation
import Logging
public import Services
import SessionRuntime

// Streamed answers the Model is reading: seen, and steered by a test or presenter ("the server now sends this").
extension Session {
    /// The streams open now, oldest first: each one's request, with ``NetworkExchange/stream`` telling how far it got.
    public func openStreams() async throws(HostError) -> [NetworkExchange] {
        try await live().onNetwork { await $0.openStreams() }
    }

    /// Pushes `bytes` (for server-sent events, one event in the wire format) into open stream `stream`, lets the
    /// Model read it, and returns the settled state. The push is a step of the history, so a rewind replays it.
    /// - Throws: ``HostError`` `.unknownStream` when no stream of that number is open; `.streamFull` when the Model
    ///   has not read the pushes already waiting.
    public func pushToStream(_ bytes: Data, stream: Int) async throws(HostError) -> ModelState {
        try admit("push into stream \(stream)")
        await takeTurn()
        defer { endTurn() }
        try await pushNow(bytes, into: stream)
        return try await settleSteered(.pushToStream(stream: stream, bytes: bytes), "the push into stream \(stream)")
    }

    /// Ends open stream `stream`: the server closes it (`fault` nil) or it breaks off with `fault`; returns the
    /// settled state once the Model has seen the end; a WebSocket closes with `frame` (code 1000 unless given). A
    /// step of the history.
    /// - Throws: ``HostError`` `.unknownStream` when no stream of that number is open.
    public func closeStream(_ stream: Int, fault: TransportError? = nil, frame: WebSocketClose? = nil) async throws(HostError) -> ModelState {
        await takeTurn()
        defer { endTurn() }
        try await closeNow(stream, fault: fault, frame: frame)
        return try await settleSteered(.closeStream(stream: stream, fault: fault, frame: frame), "the end of stream \(stream)")
    }

    /// After a push or a close, holding the turn: lets the Model read it, publishes the state and keeps the step.
    private func settleSteered(_ change: SessionHistory.Change, _ what: String) async throws(HostError) -> ModelState {
        // The Model reads what was pushed (or sees the end) before the state is taken.
        try await live().clock.settle()
        let state = try await publishStateIfChanged()
        let escaped = reportEscapes(during: what)
        await remember(change)
        try failOnEscapes(escaped, during: what)
        return state
    }

    func pushNow(_ bytes: Data, into stream: Int) async throws(HostError) {
        let runtime = try live()
        do {
            try await runtime.onNetwork { network throws(RoutedNetwork.StreamSteeringError) in try await network.push(bytes, into: stream) }
        } catch {
            throw try await steeringError(error, stream)
        }
        logger.info("\(bytes.count) bytes pushed into stream \(stream)")
    }

    func closeNow(_ stream: Int, fault: TransportError?, frame: WebSocketClose?) async throws(HostError) {
        let runtime = try live()
        do {
            try await runtime.onNetwork { network throws(RoutedNetwork.StreamSteeringError) in
                try await network.close(stream, with: fault.map { .drop($0) } ?? .close, frame: frame)
            }
        } catch {
            throw try await steeringError(error, stream)
        }
        logger.info("stream \(stream) \(fault.map { "dropped with \($0.rawValue)" } ?? "closed")")
    }

    private func steeringError(_ error: RoutedNetwork.StreamSteeringError, _ stream: Int) async throws(HostError) -> HostError {
        switch error {
        case .notOpen:
            let open = try await openStreams().map { String($0.sequence) }
            return HostError(.unknownStream, "session '\(id)' has no open stream \(stream); streams are numbered by their request's journal sequence, and the open ones are \(open.isEmpty ? "none" : open.joined(separator: ", ")) (GET /v1/sessions/\(id)/streams).")
        case .full:
            return HostError(.streamFull, "stream \(stream) of session '\(id)' already holds \(RoutedNetwork.pushLimit) pushed chunks the Model has not read; move the clock or act so the Model reads them, then push more.")
        case .live:
            return HostError(.liveStream, "stream \(stream) of session '\(id)' is live: its real server sends what it sends and closes it when it does. Pushing and closing steer a scenario's scripted streams; to play the server, answer the route with a 'stream' or 'webSocket' instead of 'live: true'.")
        }
    }
}
