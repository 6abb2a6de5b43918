public import Foundation
import Synchronization
// swift-http-types in the Model contract: a Model builds its requests and reads its responses with its types (the
// standard HTTP vocabulary of Swift on the server), so a team uses that package too.
public import HTTPTypes

/// A response that arrives over time: the head at once, then the body chunk by chunk (a chunked body, server-sent
/// events). ``NetworkService/stream(_:)`` returns it; read ``body`` for the bytes or ``events`` for the events.
///
/// The body can be read once. A consumer that stops reading early (leaves its loop, or drops the stream) closes it;
/// so does cancelling the task that reads. A consumer that reads slowly holds the stream back rather than buffer it:
/// the next chunk is asked for only when the consumer asks.
public struct NetworkStream: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body, chunk by chunk.
    public var body: Body

    /// Creates a stream whose chunks come from `source`.
    public init(head: HTTPResponse, source: some NetworkStreamSource) {
        self.head = head
        self.body = Body(source: source)
    }

    /// Creates a stream of chunks already at hand: a whole response read as a stream.
    public init(head: HTTPResponse, chunks: [Data]) {
        self.init(head: head, source: FixedChunks(chunks: chunks))
    }

    /// The body read as server-sent events.
    public var events: SSEEvents { SSEEvents(body: body) }

    /// The body's chunks, as an asynchronous sequence that throws ``TransportError``.
    public struct Body: AsyncSequence, Sendable {
        public typealias Element = Data
        public typealias Failure = TransportError
        /// Where the chunks come from: a service that relays a stream (a recorder, the network fake's live routes)
        /// reads it directly.
        public let source: any NetworkStreamSource

        /// Creates a body read from `source`.
        public init(source: some NetworkStreamSource) {
            self.source = source
        }

        /// The iterator; make one per body.
        public func makeAsyncIterator() -> Iterator { Iterator(reader: Reader(source: source)) }

        /// Reads the chunks in order; nil after the last.
        public struct Iterator: AsyncIteratorProtocol {
            let reader: Reader

            /// The next chunk, or nil once the stream has ended.
            public mutating func next() async throws(TransportError) -> Data? {
                try await reader.next()
            }

            /// The next chunk, or nil once the stream has ended.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(TransportError) -> Data? {
                try await reader.next()
            }
        }
    }

    /// Tells the source the consumer let go when the last iterator goes away before the stream ended.
    final class Reader: Sendable {
        let source: any NetworkStreamSource
        init(source: any NetworkStreamSource) { self.source = source }
        func next() async throws(TransportError) -> Data? { try await source.next() }
        deinit { source.consumerLeft() }
    }
}

/// Where a ``NetworkStream``'s chunks come from: the live network's connection, or a scenario's scripted stream.
public protocol NetworkStreamSource: Sendable {
    /// The next chunk, waiting for it; nil once the stream has ended.
    /// - Throws: ``TransportError`` when the stream broke off; `.cancelled` when the calling task was cancelled.
    func next() async throws(TransportError) -> Data?
    /// The consumer let go of the stream (its last iterator went away): close it if it is still open. Called once,
    /// from any thread, also after a stream that ended; it must not wait.
    func consumerLeft()
}

/// A body already at hand, handed out chunk by chunk.
private final class FixedChunks: NetworkStreamSource {
    // Guarded: a stream is read by one consumer at a time, but Sendable lets it cross threads between reads.
    private let remaining: Mutex<ArraySlice<Data>>
    init(chunks: [Data]) { remaining = Mutex(chunks[...]) }
    func next() async throws(TransportError) -> Data? {
        guard !Task.isCancelled else { throw .cancelled }
        return remaining.withCheckedLock { $0.popFirst() }
    }
    func consumerLeft() { remaining.withCheckedLock { $0 = [] } }
}

/// A ``NetworkStream``'s body read as ``SSEEvent``s with ``SSEParser``.
public struct SSEEvents: AsyncSequence, Sendable {
    public typealias Element = SSEEvent
    public typealias Failure = TransportError
    let body: NetworkStream.Body

    /// The iterator; make one per stream.
    public func makeAsyncIterator() -> Iterator { Iterator(chunks: body.makeAsyncIterator()) }

    /// Reads events in order; nil once the stream has ended (an event left without its blank line is dropped).
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: NetworkStream.Body.Iterator
        var parser = SSEParser()
        var ready: ArraySlice<SSEEvent> = []

        /// The next event, or nil once the stream has ended.
        public mutating func next() async throws(TransportError) -> SSEEvent? {
            try await next(isolation: nil)
        }

        /// The next event, or nil once the stream has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(TransportError) -> SSEEvent? {
            while ready.isEmpty {
                guard let chunk = try await chunks.next(isolation: actor) else {
                    parser.finish()
                    return nil
                }
                ready = parser.consume(chunk)[...]
            }
            return ready.popFirst()
        }
    }
}
