import ControlAPI
import Foundation
import Services
import Synchronization

/// An event with its place in the session's sequence: the `id:` of its server-sent event.
public struct NumberedEvent: Sendable, Hashable {
    /// 1, 2, 3… in the order the session published its events; it never restarts while the session lives.
    public let id: Int
    public let event: SessionEvent
}

/// A subscription to a session's events, and how it joined their sequence.
public struct EventSubscription: Sendable {
    /// How a subscription that asked to resume after an event id was served.
    public enum Start: Sendable, Hashable {
        /// Asked for nothing earlier: the stream has the events published from now on.
        case now
        /// The stream starts with every retained event after the id asked for: nothing was missed.
        case resumed
        /// Events after the id asked for are no longer retained (or the id is from an earlier life of the session);
        /// the stream has the events from now on, and the client should read the whole state again.
        case gap(oldestRetained: Int?)
    }

    public let events: EventQueue
    /// The ids of the frames the stream opens with before its events, taken from the session's sequence so that no
    /// id is ever given twice: none for a resumed stream; the current state's for a new one; the gap's notice's and
    /// the current state's after a gap. The events that follow have higher ids.
    public let openingIDs: [Int]
    public let start: Start

    /// The most events a stream holds for its reader; past it (or past ``HostLimits/eventBufferBytes``) the oldest
    /// are dropped.
    public static let bufferSize = 1_024

    /// The events dropped because this stream's reader fell ``bufferSize`` events (or its bytes) behind, all of them
    /// before `event`: taken (and counted from zero again) when any were, so the reader can say so before `event`.
    public func takeMissed(before event: NumberedEvent) -> MissedEvents.Run? {
        events.buffer.missed.take(before: event.id)
    }

    /// Ends the stream now (its reader has gone): its loop reads what waits and ends, and its place under the
    /// limits is given back.
    public func end() { events.buffer.finish(discarding: false) }
}

/// Events a slow reader's stream dropped: the newest are kept, so a run of the oldest is lost.
public final class MissedEvents: Sendable {
    /// A run of dropped events.
    public struct Run: Sendable, Hashable {
        /// How many were dropped.
        public var count: Int
        /// The id of the newest dropped.
        public var lastID: Int
    }

    /// The runs not yet told, oldest first. A run ends where the reader took an event: drops after the event the
    /// writer is about to write belong to the gap after it, not before (one run for both lost a gap of 6 between
    /// ids 257 and 264 when 265 on were dropped before the writer asked).
    private let runs = Mutex<[Run]>([])

    func note(_ id: Int) {
        runs.withCheckedLock { runs in
            if let last = runs.last, last.lastID == id - 1 {
                runs[runs.count - 1] = Run(count: last.count + 1, lastID: id)
            } else {
                runs.append(Run(count: 1, lastID: id))
            }
        }
    }

    /// The events dropped before event `id`, as one run (they follow the event written before it), or nil.
    func take(before id: Int) -> Run? {
        runs.withCheckedLock { runs in
            let before = runs.prefix { $0.lastID < id }
            guard let last = before.last else { return nil }
            let count = before.reduce(0) { $0 + $1.count }
            runs.removeFirst(before.count)
            return Run(count: count, lastID: last.lastID)
        }
    }
}

/// Fans events out to every open stream of a session, numbering them, and keeps the newest so a client that
/// reconnects with the last id it saw gets what it missed. Each stream buffers the newest events, so a slow reader
/// loses old events rather than holding the session up, and is told how many (``EventSubscription/takeMissed(before:)``).
final class EventBroadcaster: Sendable {
    static let bufferSize = EventSubscription.bufferSize
    /// Events kept for clients that reconnect, within the byte bound of a stream's buffer too. Kept only once the
    /// session has had a subscriber, so the sessions nobody watches (most of a test suite's) hold none.
    static let retainedCount = 256

    private struct State {
        var nextStream = 0
        var open: [Int: EventBuffer] = [:]
        var lastID = 0
        /// The retained events, oldest first, each with its bytes.
        var retained: [(event: NumberedEvent, bytes: Int)] = []
        var retainedBytes = 0
        var everSubscribed = false
    }

    private let state = Mutex(State())
    /// Streams whose reader has gone, taken out of `open` at the next use of `state`. A stream's end is told with
    /// the reading task's status lock held (its cancellation), and `publish` takes that lock (a yield resumes the
    /// reader) while it holds `state`'s: so the end must not wait for `state`'s lock, or the two deadlock.
    private let ended = Mutex<[Int]>([])
    private let limit: Int
    private let allStreams: SubscriberCount
    /// The bytes one stream's buffer holds at most, and the retained events too.
    private let byteLimit: Int
    /// Where the buffers' and the retained events' bytes are counted.
    private let held: SessionBytes

    /// - Parameters:
    ///   - limit: Streams this session may have open at once.
    ///   - allStreams: The streams open across the host, with their limit.
    ///   - byteLimit: The bytes one stream's buffer holds at most, and the retained events too.
    ///   - held: Where those bytes are counted.
    init(limit: Int, allStreams: SubscriberCount, byteLimit: Int, held: SessionBytes) {
        self.limit = limit
        self.allStreams = allStreams
        self.byteLimit = byteLimit
        self.held = held
    }

    /// A new stream of the events published from now on, preceded by the retained ones after `lastEventID`.
    /// - Throws: ``HostError`` `.tooManySubscribers` past this session's limit or the host's.
    func subscribe(session: String, after lastEventID: Int?) throws(HostError) -> EventSubscription {
        let claimed: Result<(EventBuffer, [Int], EventSubscription.Start), HostError> = state.withCheckedLock { state in
            forgetEnded(&state)
            guard state.open.count < limit else {
                return .failure(HostError(.tooManySubscribers, "session '\(session)' has \(limit) event streams open, its limit; close one (or raise the daemon's --max-subscribers-per-session) and try again."))
            }
            guard allStreams.claim() else {
                return .failure(HostError(.tooManySubscribers, "\(allStreams.limit) event streams are open across all sessions, the limit; close one (or raise the daemon's --max-subscribers) and try again."))
            }
            let streamID = state.nextStream
            state.nextStream += 1
            // Told however the stream ends, so the count is given back.
            let buffer = EventBuffer(countLimit: Self.bufferSize, byteLimit: byteLimit, held: held) { [weak self, allStreams] in
                self?.ended.withCheckedLock { $0.append(streamID) }
                allStreams.release()
            }
            state.open[streamID] = buffer
            state.everSubscribed = true
            var start = EventSubscription.Start.now
            if let lastEventID {
                let oldest = state.retained.first?.event.id ?? state.lastID + 1
                if lastEventID <= state.lastID, lastEventID >= oldest - 1 {
                    // Yielded under the lock, so no event published meanwhile can overtake them.
                    for (event, bytes) in state.retained where event.id > lastEventID { buffer.push(event, bytes: bytes) }
                    start = .resumed
                } else {
                    start = .gap(oldestRetained: state.retained.first?.event.id)
                }
            }
            // The opening frames get ids of their own: a client that drops an id it has seen (as a browser's
            // EventSource resumes by id) must not take the new state for an event it already had. Other streams
            // never see these ids; their numbering only skips them.
            let count = switch start { case .resumed: 0; case .now: 1; case .gap: 2 }
            let opening = Array(state.lastID + 1 ..< state.lastID + 1 + count)
            state.lastID += count
            return .success((buffer, opening, start))
        }
        let (buffer, opening, start) = try claimed.get()
        return EventSubscription(events: EventQueue(buffer: buffer), openingIDs: opening, start: start)
    }

    /// Whether any stream is open.
    var hasSubscribers: Bool {
        state.withCheckedLock { state in
            forgetEnded(&state)
            return !state.open.isEmpty
        }
    }

    func publish(_ event: SessionEvent) {
        state.withCheckedLock { state in
            forgetEnded(&state)
            state.lastID += 1
            let numbered = NumberedEvent(id: state.lastID, event: event)
            guard state.everSubscribed else { return }
            let bytes = event.heldBytes
            state.retained.append((numbered, bytes))
            state.retainedBytes += bytes
            var freed = 0
            while state.retained.count > 1, state.retained.count > Self.retainedCount || state.retainedBytes > byteLimit {
                freed += state.retained[0].bytes
                state.retainedBytes -= state.retained[0].bytes
                state.retained.removeFirst()
            }
            held.add(bytes - freed, to: .events)
            // Pushed under the lock, so every stream sees the ids in order (a push never calls back into here, and
            // a stream's end takes `ended`'s lock, not this one).
            for buffer in state.open.values {
                // The buffer keeps the newest: the oldest waiting are dropped, and counted for the reader to hear of.
                let dropped = buffer.push(numbered, bytes: bytes)
                if dropped > 0 { allStreams.noteDropped(dropped) }
            }
        }
    }

    /// Takes the streams whose reader has gone out of `open`.
    private func forgetEnded(_ state: inout State) {
        for stream in ended.withCheckedLock({ ended in defer { ended = [] }; return ended }) {
            state.open.removeValue(forKey: stream)
        }
    }

    /// Ends every stream; their readers get what waits for them first.
    func finish() {
        for buffer in state.withCheckedLock({ Array($0.open.values) }) {
            buffer.finish(discarding: false)
        }
    }
}

/// The event streams open across a host's sessions, counted against its limit, and the events their slow readers lost.
final class SubscriberCount: Sendable {
    let limit: Int
    private let open = Mutex(0)
    private let dropped = Atomic(0)

    /// The streams open now.
    var count: Int { open.withCheckedLock { $0 } }
    /// The events dropped for readers that fell behind, since the host started.
    var droppedEvents: Int { dropped.load(ordering: .relaxed) }
    func noteDropped(_ count: Int) { dropped.add(count, ordering: .relaxed) }

    init(limit: Int) { self.limit = limit }

    /// Counts one more stream; false when the limit is reached.
    func claim() -> Bool {
        open.withCheckedLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func release() { open.withCheckedLock { $0 -= 1 } }
}
