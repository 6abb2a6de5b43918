public import Foundation
public import Services
import HTTPTypes

/// A streamed answer the fake is delivering: its script, where it stands, and the Model's read waiting on it.
struct OpenStream {
    var exchange: NetworkExchange
    let script: StreamScript
    let openedAt: Date
    /// The next scripted chunk.
    var next = 0
    /// Chunks a test pushed, delivered before anything scripted for later.
    var pushed: [Data] = []
    /// How a test ended it, taking effect at the Model's next read.
    var ending: StreamScript.End?
    /// The Model's read, while it waits for a chunk that is not yet due.
    var waiter: UnsafeContinuation<Void, Never>?
    /// Wakes the waiting read when the next chunk (or the end) falls due on the session's clock.
    var timer: Task<Void, Never>?
    /// Tells a stale timer from the current one.
    var waitNumber = 0

    func due(_ offset: Duration) -> Date {
        let (seconds, attoseconds) = offset.components
        return openedAt.addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
    }

    /// Updates the journal's view of what is still to come.
    mutating func notePending() {
        let pending = script.items.count - next + pushed.count
        let nextAt = next < script.items.count ? due(script.items[next].offset) : nil
        exchange.stream?.pending = pending
        exchange.stream?.nextAt = nextAt
    }
}

/// Streamed answers: delivered one chunk per read, each when the session's clock reaches it, so a Model that stops
/// reading costs nothing more and a test can read the state between any two chunks.
extension RoutedNetwork {
    /// The most chunks a test may push into a stream the Model is not reading.
    public static let pushLimit = 1_000

    /// Delivers `outcome`'s head (after its delay), then opens its stream.
    func open(_ outcome: RouteOutcome, _ arrived: NetworkExchange) async throws(TransportError) -> NetworkStream {
        guard let script = outcome.stream, case .response(let response) = outcome.result else {
            preconditionFailure("open(_:_:) takes a streamed response")
        }
        // The stream opens when its head arrives; its entry is journaled with the head (and updated in place after).
        let (seconds, attoseconds) = outcome.delay.components
        let openedAt = arrived.time.addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
        var stream = OpenStream(exchange: arrived, script: script, openedAt: openedAt)
        let events = response.head.headerFields[.contentType]?.lowercased().hasPrefix("text/event-stream") ?? false
        stream.exchange.stream = StreamTranscript(kind: events ? .events : .chunks, openedAt: openedAt, pending: 0, nextAt: nil)
        stream.notePending()
        let head = RouteOutcome(.response(NetworkResponse(head: response.head)), delay: outcome.delay)
        let (result, delivered) = await journalAndDeliver(head, stream.exchange)
        _ = try result.get()
        stream.exchange = delivered
        let id = delivered.sequence
        streams[id] = stream
        return NetworkStream(head: response.head, source: FakeStreamSource(network: self, id: id))
    }

    /// The next chunk of stream `id` for the Model's read: a pushed one, else the next scripted one once it is due;
    /// nil once the stream has closed.
    func nextChunk(of id: Int) async throws(TransportError) -> Data? {
        while let stream = streams[id] {
            if Task.isCancelled {
                await end(id, how: .cancelled)
                throw .cancelled
            }
            let now = await clock.now()
            if !stream.pushed.isEmpty {
                return await deliver(id) { $0.pushed.removeFirst() }
            }
            if let ending = stream.ending {
                return try await finish(id, ending)
            }
            if stream.next < stream.script.items.count {
                let due = stream.due(stream.script.items[stream.next].offset)
                if due <= now {
                    return await deliver(id) { stream in
                        stream.next += 1
                        return stream.script.items[stream.next - 1].bytes
                    }
                }
                await wait(id, until: due)
                continue
            }
            switch stream.script.end {
            case .stall:
                await wait(id, until: nil)
            case let end:
                let endsAt = stream.due(stream.script.endOffset)
                guard endsAt <= now else {
                    await wait(id, until: endsAt)
                    continue
                }
                return try await finish(id, end)
            }
        }
        return nil
    }

    /// Takes a chunk with `take`, records it in the journal and hands it over.
    private func deliver(_ id: Int, take: (inout OpenStream) -> Data) async -> Data {
        let pushed = !(streams[id]?.pushed.isEmpty ?? true)
        let now = await clock.now()
        let bytes = take(&streams[id]!)
        streams[id]!.exchange.stream?.append(
            StreamChunk(time: now, text: String(decoding: bytes, as: UTF8.self), pushed: pushed ? true : nil))
        streams[id]!.notePending()
        await journal(streams[id]!.exchange)
        return bytes
    }

    /// Ends stream `id` as `end` says: nil for the Model's read after a close, the error after a drop.
    private func finish(_ id: Int, _ end: StreamScript.End) async throws(TransportError) -> Data? {
        switch end {
        case .close, .stall:
            await self.end(id, how: .closed)
            return nil
        case .drop(let error):
            await self.end(id, how: .dropped, fault: error)
            throw error
        }
    }

    /// Removes stream `id` and journals how it ended.
    private func end(_ id: Int, how state: StreamTranscript.State, fault: TransportError? = nil) async {
        guard var stream = streams.removeValue(forKey: id) else { return }
        stream.timer?.cancel()
        stream.waiter?.resume()
        stream.exchange.stream?.state = state
        stream.exchange.stream?.fault = fault?.rawValue
        stream.exchange.stream?.nextAt = nil
        await journal(stream.exchange)
    }

    /// Suspends the Model's read until a chunk is pushed, the stream is ended, or the clock reaches `due`.
    private func wait(_ id: Int, until due: Date?) async {
        guard streams[id] != nil else { return }
        streams[id]!.waitNumber += 1
        let number = streams[id]!.waitNumber
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                streams[id]!.waiter = continuation
                guard let due else { return }
                let clock = clock
                let wakeUp: @Sendable () async -> Void = {
                    if let virtual = clock as? VirtualClock {
                        try? await virtual.sleep(until: due)
                    } else {
                        try? await clock.sleep(for: .seconds(due.timeIntervalSince(await clock.now())))
                    }
                    guard !Task.isCancelled else { return }
                    await self.wake(id, number: number)
                }
                // The clock's own task when it is virtual, so a reset of the session cancels it with the rest.
                streams[id]!.timer = (clock as? VirtualClock)?.spawn(wakeUp) ?? scope.start(wakeUp)
            }
        } onCancel: {
            Task { await self.wake(id, number: number) }
        }
    }

    /// Resumes the read waiting on stream `id`, if it is still the wait numbered `number` (nil: whichever waits).
    private func wake(_ id: Int, number: Int? = nil) {
        guard let stream = streams[id], number == nil || stream.waitNumber == number else { return }
        streams[id]!.timer?.cancel()
        streams[id]!.timer = nil
        streams[id]!.waiter = nil
        stream.waiter?.resume()
    }

    /// The Model let go of stream `id` before it ended.
    func release(_ id: Int) async {
        await end(id, how: .cancelled)
    }

    /// Breaks every open stream with `error` at its reader's next read (the session went offline).
    func breakOpenStreams(with error: TransportError) {
        for id in streams.keys.sorted() {
            streams[id]!.ending = .drop(error)
            wake(id)
        }
    }

    /// The streams open now, oldest first: each one's request with ``NetworkExchange/stream`` telling how far it got.
    public func openStreams() -> [NetworkExchange] {
        streams.keys.sorted().map { streams[$0]!.exchange }
    }

    /// Why a test's push or close was refused.
    public enum StreamSteeringError: Error, Sendable, Hashable {
        /// No stream of that number is open (it never was, or it has ended).
        case notOpen
        /// The stream already holds ``RoutedNetwork/pushLimit`` pushed chunks the Model has not read.
        case full
    }

    /// Pushes `bytes` into open stream `id`, delivered at the Model's next read: "the server now sends this".
    public func push(_ bytes: Data, into id: Int) throws(StreamSteeringError) {
        guard streams[id] != nil else { throw .notOpen }
        guard streams[id]!.pushed.count < Self.pushLimit else { throw .full }
        streams[id]!.pushed.append(bytes)
        streams[id]!.notePending()
        wake(id)
    }

    /// Ends open stream `id` at the Model's next read: closed by the server (`.close`) or broken off (`.drop`).
    public func close(_ id: Int, with end: StreamScript.End) throws(StreamSteeringError) {
        guard streams[id] != nil else { throw .notOpen }
        streams[id]!.ending = end
        wake(id)
    }
}

/// A scripted stream's chunks as the Model's ``NetworkStream`` reads them.
private struct FakeStreamSource: NetworkStreamSource {
    let network: RoutedNetwork
    let id: Int

    func next() async throws(TransportError) -> Data? {
        try await network.nextChunk(of: id)
    }

    func consumerLeft() {
        let network = network, id = id
        Task { await network.release(id) }
    }
}
