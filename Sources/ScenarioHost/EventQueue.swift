import Services
import Synchronization

/// The events one event stream holds for its reader, oldest first, bounded both in count
/// (``EventSubscription/bufferSize``) and in bytes (``HostLimits/eventBufferBytes``): past either the oldest are
/// dropped and noted, so the reader can be told how many it missed. Written here rather than with `AsyncStream`,
/// whose buffer is bounded in count only and cannot be measured.
public struct EventQueue: AsyncSequence, Sendable {
    public typealias Element = NumberedEvent
    public typealias Failure = Never

    let reader: Reader
    var buffer: EventBuffer { reader.buffer }

    init(buffer: EventBuffer) { reader = Reader(buffer: buffer) }

    /// Reads the queue's events in order; it ends when the stream does.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Element = NumberedEvent
        public typealias Failure = Never

        let reader: Reader

        /// The next event, waiting for one; nil once the stream has ended (or the reading task was cancelled).
        public mutating func next() async -> NumberedEvent? { await reader.buffer.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader) }

    /// The reading side, shared by the queue and its iterators: once none is left, no one can read the stream, so
    /// it ends (as an `AsyncStream` no one holds does) and gives its place back.
    final class Reader: Sendable {
        let buffer: EventBuffer
        init(buffer: EventBuffer) { self.buffer = buffer }
        deinit { buffer.finish(discarding: true) }
    }
}

/// The storage of an ``EventQueue``: the events waiting, the reader waiting for one, and what they hold.
final class EventBuffer: Sendable {
    private struct State {
        /// The events waiting, from `events[head]` on, each with its bytes.
        var events: [(event: NumberedEvent, bytes: Int)] = []
        var head = 0
        var bytes = 0
        var reader: CheckedContinuation<NumberedEvent?, Never>?
        var finished = false
        var endTold = false

        var count: Int { events.count - head }

        mutating func takeOldest() -> (event: NumberedEvent, bytes: Int) {
            let oldest = events[head]
            head += 1
            bytes -= oldest.bytes
            if head == events.count {
                events.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64, head * 2 > events.count {
                events.removeFirst(head)
                head = 0
            }
            return oldest
        }
    }

    private let state = Mutex(State())
    private let countLimit: Int
    private let byteLimit: Int
    private let held: SessionBytes
    /// Told once, when the stream ends, however it ends.
    private let onEnd: @Sendable () -> Void
    let missed = MissedEvents()

    init(countLimit: Int, byteLimit: Int, held: SessionBytes, onEnd: @escaping @Sendable () -> Void) {
        self.countLimit = countLimit
        self.byteLimit = byteLimit
        self.held = held
        self.onEnd = onEnd
    }

    /// Adds `event`, which holds `bytes`, dropping the oldest waiting past the bounds (the newest always stays).
    /// - Returns: how many were dropped.
    @discardableResult
    func push(_ event: NumberedEvent, bytes: Int) -> Int {
        var change = 0
        let (dropped, reader) = state.withCheckedLock { state -> (Int, CheckedContinuation<NumberedEvent?, Never>?) in
            guard !state.finished else { return (0, nil) }
            if let reader = state.reader {
                // Handed to the reader waiting: it holds nothing here.
                state.reader = nil
                return (0, reader)
            }
            state.events.append((event, bytes))
            state.bytes += bytes
            change += bytes
            var dropped = 0
            while state.count > 1, state.count > countLimit || state.bytes > byteLimit {
                let oldest = state.takeOldest()
                change -= oldest.bytes
                missed.note(oldest.event.id)
                dropped += 1
            }
            return (dropped, nil)
        }
        // Resumed with no lock held: a resume may take the reading task's status lock, which its cancellation holds
        // while it ends the stream here (and waits for this lock).
        reader?.resume(returning: event)
        held.add(change, to: .events)
        return dropped
    }

    /// The oldest event waiting, or the next one pushed; nil once the stream has ended and nothing waits.
    func next() async -> NumberedEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<NumberedEvent?, Never>) in
                let taken = state.withCheckedLock { state -> (event: NumberedEvent, bytes: Int)?? in
                    if state.count > 0 { return state.takeOldest() }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.reader = reader
                    return nil
                }
                // Resumed with no lock held (see push).
                switch taken {
                case .some(let oldest?):
                    held.add(-oldest.bytes, to: .events)
                    reader.resume(returning: oldest.event)
                case .some(nil): reader.resume(returning: nil)
                case nil: break
                }
            }
        } onCancel: {
            finish(discarding: true)
        }
    }

    /// Ends the stream: its reader gets what waits (none when `discarding`, as when the reader has gone), then nil.
    func finish(discarding: Bool) {
        let (freed, reader, tellEnd) = state.withCheckedLock { state -> (Int, CheckedContinuation<NumberedEvent?, Never>?, Bool) in
            state.finished = true
            let reader = state.reader
            state.reader = nil
            var freed = 0
            if discarding {
                freed = state.bytes
                state.events = []
                state.head = 0
                state.bytes = 0
            }
            defer { state.endTold = true }
            return (freed, reader, !state.endTold)
        }
        reader?.resume(returning: nil)
        held.add(-freed, to: .events)
        if tellEnd { onEnd() }
    }
}
