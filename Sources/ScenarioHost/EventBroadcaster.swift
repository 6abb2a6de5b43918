import Foundation
import Synchronization

/// Fans events out to every open stream of a session. Each stream buffers the newest events, so a slow reader
/// loses old events rather than holding the session up.
final class EventBroadcaster: Sendable {
    static let bufferSize = 1_024

    private let streams = Mutex<(next: Int, open: [Int: AsyncStream<SessionEvent>.Continuation])>((0, [:]))
    private let limit: Int
    private let allStreams: SubscriberCount

    /// - Parameters:
    ///   - limit: Streams this session may have open at once.
    ///   - allStreams: The streams open across the host, with their limit.
    init(limit: Int, allStreams: SubscriberCount) {
        self.limit = limit
        self.allStreams = allStreams
    }

    /// A new stream of the events published from now on.
    /// - Throws: ``HostError`` `.tooManySubscribers` past this session's limit or the host's.
    func subscribe(session: String) throws(HostError) -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
        let claimed: Result<Void, HostError> = streams.withLock { state in
            guard state.open.count < limit else {
                return .failure(HostError(.tooManySubscribers, "session '\(session)' has \(limit) event streams open, its limit; close one (or raise the daemon's --max-subscribers-per-session) and try again."))
            }
            guard allStreams.claim() else {
                return .failure(HostError(.tooManySubscribers, "\(allStreams.limit) event streams are open across all sessions, the limit; close one (or raise the daemon's --max-subscribers) and try again."))
            }
            let id = state.next
            state.next += 1
            // Set before the stream is reachable, so the count is given back however the stream ends.
            continuation.onTermination = { [weak self, allStreams] _ in
                _ = self?.streams.withLock { $0.open.removeValue(forKey: id) }
                allStreams.release()
            }
            state.open[id] = continuation
            return .success(())
        }
        try claimed.get()
        return stream
    }

    /// Whether any stream is open.
    var hasSubscribers: Bool { streams.withLock { !$0.open.isEmpty } }

    func publish(_ event: SessionEvent) {
        for continuation in streams.withLock({ Array($0.open.values) }) {
            continuation.yield(event)
        }
    }

    /// Ends every stream.
    func finish() {
        for continuation in streams.withLock({ Array($0.open.values) }) {
            continuation.finish()
        }
    }
}

/// The event streams open across a host's sessions, counted against its limit.
final class SubscriberCount: Sendable {
    let limit: Int
    private let open = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// Counts one more stream; false when the limit is reached.
    func claim() -> Bool {
        open.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func release() { open.withLock { $0 -= 1 } }
}
