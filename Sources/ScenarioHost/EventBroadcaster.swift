import Foundation
import Synchronization

/// Fans events out to every open stream of a session. Each stream buffers the newest events, so a slow reader
/// loses old events rather than holding the session up.
final class EventBroadcaster: Sendable {
    static let bufferSize = 1_024

    private let streams = Mutex<(next: Int, open: [Int: AsyncStream<SessionEvent>.Continuation])>((0, [:]))

    /// A new stream of the events published from now on.
    func subscribe() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
        let id = streams.withLock { state in
            defer { state.next += 1 }
            state.open[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.open.removeValue(forKey: id) }
        }
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
