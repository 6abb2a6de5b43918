public import Fakes
public import Foundation
import HTTPTypes
import HeapModule
import Synchronization
public import Services

/// A streamed answer or WebSocket the fake is serving: what is due when, and the Model's read waiting on it.
struct OpenStream {
    /// A chunk (or server message) and the instant it is due on the session's clock.
    struct Queued {
        var due: Date
        var bytes: Data
        var binary = false
        var pushed = false
        /// For a conversation's message: what can withdraw it before it is sent (a subscription's id).
        var tag: String?
        /// What the journal shows instead of the bytes (a gRPC message's JSON form).
        var journaled: Data?
    }

    /// How the stream ends, and when.
    struct Ending {
        var due: Date
        var end: StreamScript.End
        /// For a WebSocket, the server's close frame.
        var frame: WebSocketClose?
        /// For a gRPC call, its status and trailing metadata.
        var status: (RPCStatus, trailers: HTTPFields)?
    }

    /// What is still to come, by due instant (of equal instants, in the order queued). A heap: a conversation whose
    /// replies are due at once while thousands of later ones wait (a client that never moves the clock) queues each
    /// in O(log n), where a sorted array moved every later reply for every new one.
    struct DueQueue {
        /// An item with its place among items due at the same instant.
        private struct Keyed: Comparable {
            var item: Queued
            var order: Int

            static func < (a: Keyed, b: Keyed) -> Bool { (a.item.due, a.order) < (b.item.due, b.order) }
            static func == (a: Keyed, b: Keyed) -> Bool { a.item.due == b.item.due && a.order == b.order }
        }

        private var heap = Heap<Keyed>()
        private var queued = 0
        /// How many pushed items are still to come (a push is refused past a bound, checked on every push).
        private(set) var pushed = 0
        /// The bytes of everything still to come (a conversation is closed past a bound, checked on every message).
        private(set) var bytes = 0

        var first: Queued? { heap.min?.item }
        var count: Int { heap.count }

        /// Adds `item` after everything due at or before it.
        mutating func insert(_ item: Queued) {
            heap.insert(Keyed(item: item, order: queued))
            queued += 1
            bytes += item.bytes.count
            if item.pushed { pushed += 1 }
        }

        mutating func removeFirst() -> Queued {
            let item = heap.removeMin().item
            bytes -= item.bytes.count
            if item.pushed { pushed -= 1 }
            return item
        }

        mutating func removeAll(where predicate: (Queued) -> Bool) {
            heap = Heap(heap.unordered.filter { !predicate($0.item) })
            pushed = heap.unordered.count { $0.item.pushed }
            bytes = heap.unordered.reduce(0) { $0 + $1.item.bytes.count }
        }
    }

    var exchange: NetworkExchange
    var queue = DueQueue()
    /// How it ends; nil while it stays open (a stall, a WebSocket with no close).
    var ending: Ending?
    /// For a WebSocket: how the server answers the Model's messages.
    var replies: [WebSocketScript.Reply] = []
    /// For a WebSocket an answerer holds (GraphQL subscriptions): it, this conversation's state and the session's.
    var conversation: (answerer: any SocketAnswerer, state: any Sendable, session: any Sendable)?
    /// For a gRPC call: its method's answerer and what is left of its script (RoutedNetwork+RPC.swift).
    var call: OpenCall?
    /// Wakes the Model's read while it waits for a chunk that is not yet due.
    var wake: StreamWake?

    init(exchange: NetworkExchange) {
        self.exchange = exchange
    }

    mutating func enqueue(_ item: Queued) {
        queue.insert(item)
    }

    /// Updates the journal's view of what is still to come.
    mutating func notePending() {
        let pending = queue.count
        let nextAt = queue.first?.due
        exchange.stream?.pending = pending
        exchange.stream?.nextAt = nextAt
    }
}

extension StreamTranscript.Kind {
    /// `events` for a `text/event-stream` head, else `chunks`.
    init(of head: HTTPResponse) {
        let type = head.headerFields[.contentType]?.lowercased() ?? ""
        self = type.hasPrefix("text/event-stream") ? .events : .chunks
    }
}

extension Date {
    /// This instant plus `duration`.
    func adding(_ duration: Duration) -> Date {
        let (seconds, attoseconds) = duration.components
        return addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
    }
}

/// Streamed answers and WebSockets: delivered one chunk (message) per read, each when the session's clock reaches
/// it, so a Model that stops reading costs nothing more and a test can read the state between any two.
extension RoutedNetwork {
    /// The most chunks a test may push into a stream the Model is not reading.
    public static let pushLimit = 1_000

    /// Delivers `outcome`'s head (after its delay), then opens its stream.
    func open(_ outcome: RouteOutcome, _ arrived: NetworkExchange) async throws(TransportError) -> NetworkStream {
        guard let script = outcome.stream, case .response(let response) = outcome.result else {
            preconditionFailure("open(_:_:) takes a streamed response")
        }
        let id = try await openQueue(outcome, arrived, kind: StreamTranscript.Kind(of: response.head)) { stream, openedAt in
            for item in script.items { stream.enqueue(.init(due: openedAt.adding(item.offset), bytes: item.bytes)) }
            if script.end != .stall {
                stream.ending = .init(due: openedAt.adding(script.endOffset), end: script.end)
            }
        }
        return NetworkStream(head: response.head, source: FakeStreamSource(network: self, id: id))
    }

    /// Journals and delivers `outcome`'s head after its delay, then keeps the stream `fill` sets up; returns its number.
    func openQueue(_ outcome: RouteOutcome, _ arrived: NetworkExchange, kind: StreamTranscript.Kind,
                   fill: (inout OpenStream, Date) -> Void) async throws(TransportError) -> Int {
        guard case .response(let response) = outcome.result else { preconditionFailure("a stream opens with a head") }
        // The stream opens when its head arrives; its entry is journaled with the head (and updated in place after).
        let openedAt = arrived.time.adding(outcome.delay)
        var stream = OpenStream(exchange: arrived)
        stream.exchange.stream = StreamTranscript(kind: kind, openedAt: openedAt, pending: 0, nextAt: nil)
        fill(&stream, openedAt)
        stream.notePending()
        let head = RouteOutcome(.response(NetworkResponse(head: response.head)), delay: outcome.delay)
        let (result, delivered) = await journalAndDeliver(head, stream.exchange)
        _ = try result.get()
        stream.exchange = delivered
        streams[delivered.sequence] = stream
        return delivered.sequence
    }

    /// The next chunk of stream `id` for the Model's read once it is due; nil once the stream has closed.
    func nextChunk(of id: Int) async throws(TransportError) -> OpenStream.Queued? {
        // Reads the stream's front and ending, not a copy of the stream: a copy alive while `deliver` takes the front
        // would make that copy the whole queue (thousands of waiting replies) on every read.
        while streams[id] != nil {
            if Task.isCancelled {
                await release(id)
                throw .cancelled
            }
            let now = await clock.now()
            let first = streams[id]?.queue.first?.due, ending = streams[id]?.ending
            if let first, first <= now, ending.map({ first <= $0.due }) ?? true {
                return await deliver(id, at: now)
            }
            if let ending, ending.due <= now {
                return try await finish(id, ending)
            }
            await wait(id, until: [first, ending?.due].compactMap { $0 }.min())
        }
        return nil
    }

    /// Takes the first chunk of stream `id`, records it in the journal and hands it over.
    private func deliver(_ id: Int, at now: Date) async -> OpenStream.Queued {
        let item = streams[id]!.queue.removeFirst()
        streams[id]!.exchange.stream?.append(StreamChunk(time: now, bytes: item.journaled ?? item.bytes, binary: item.journaled == nil && item.binary, pushed: item.pushed))
        streams[id]!.notePending()
        await journal(streams[id]!.exchange)
        return item
    }

    /// Ends stream `id` as `ending` says: nil for the Model's read after a close, the error after a drop.
    private func finish(_ id: Int, _ ending: OpenStream.Ending) async throws(TransportError) -> OpenStream.Queued? {
        switch ending.end {
        case .close, .stall:
            await end(id, how: .closed, close: ending.frame, status: ending.status)
            return nil
        case .drop(let error):
            await end(id, how: .dropped, fault: error)
            throw error
        }
    }

    /// Removes stream `id` and journals how it ended.
    func end(_ id: Int, how state: StreamTranscript.State, fault: TransportError? = nil, close: WebSocketClose? = nil,
             status: (RPCStatus, trailers: HTTPFields)? = nil) async {
        guard var stream = streams.removeValue(forKey: id) else { return }
        stream.wake?.fire()
        stream.exchange.stream?.state = state
        stream.exchange.stream?.fault = fault?.rawValue
        // A gRPC call's status is journaled as its close: the code and message the server ended it with.
        stream.exchange.stream?.close = status.map { WebSocketClose(code: $0.0.code, reason: $0.0.message) } ?? close
        if let status { endedCalls[id] = status }
        stream.exchange.stream?.nextAt = nil
        await journal(stream.exchange)
        if stream.exchange.stream?.kind == .webSocket, state == .closed, let close { closedSockets[id] = close }
    }

    /// Suspends the Model's read until something is pushed or queued, the stream is ended, or the clock reaches `due`.
    /// On the session's virtual clock the wake is one of the clock's calls, in its turn among the sleepers: no task
    /// per event (a stream of thousands spent more on the tasks than on the events).
    private func wait(_ id: Int, until due: Date?) async {
        guard streams[id] != nil else { return }
        let wake = StreamWake()
        streams[id]!.wake = wake
        var call: Int?
        var timer: Task<Void, Never>?
        if let due, let virtual = clock as? VirtualClock {
            call = await virtual.call(at: due) { wake.fire(byClock: true) }
        } else if let due {
            let clock = clock
            timer = scope.start {
                try? await clock.sleep(for: .seconds(due.timeIntervalSince(await clock.now())))
                guard !Task.isCancelled else { return }
                wake.fire(byClock: true)
            }
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { wake.resume($0) }
        } onCancel: {
            wake.fire()
        }
        timer?.cancel()
        if let call, !wake.firedByClock, let virtual = clock as? VirtualClock { await virtual.cancelCall(call) }
        if streams[id]?.wake === wake { streams[id]!.wake = nil }
    }

    /// Resumes the read waiting on stream `id`, if one waits.
    func wake(_ id: Int) {
        streams[id]?.wake?.fire()
    }

    /// Ends every scripted stream and WebSocket still open, each journaled `cancelled`: the session is going, and a
    /// read waiting on one is resumed (it reads the end) rather than left to wait for good.
    public func endOpenStreams() async {
        for id in streams.keys.sorted() { await end(id, how: .cancelled) }
    }

    /// The Model let go of stream `id`: cancelled, unless its server had ended it by now (a Model that stops reading
    /// at a reply's last chunk lets go at the instant its script ends), which is then how it ended.
    func release(_ id: Int) async {
        if let stream = streams[id], stream.queue.first == nil, let ending = stream.ending, ending.due <= (await clock.now()) {
            _ = try? await finish(id, ending)
        } else {
            await end(id, how: .cancelled)
        }
        // No one is left to read how a gRPC call ended.
        endedCalls[id] = nil
    }

    /// Breaks every open stream with `error` at its reader's next read (the session went offline).
    func breakOpenStreams(with error: TransportError) {
        let now = (clock as? VirtualClock)?.now() ?? Date()
        for id in streams.keys.sorted() {
            streams[id]!.queue.removeAll { $0.due > now }
            streams[id]!.ending = .init(due: now, end: .drop(error))
            wake(id)
        }
    }

    /// The streams open now, oldest first: each one's request with ``/Services/NetworkExchange/stream`` telling how far it got.
    public func openStreams() -> [NetworkExchange] {
        (streams.values.map(\.exchange) + liveStreams.values).sorted { $0.sequence < $1.sequence }
    }

    /// Why a test's push or close was refused.
    public enum StreamSteeringError: Error, Sendable, Hashable {
        /// No stream of that number is open (it never was, or it has ended).
        case notOpen
        /// The stream already holds ``RoutedNetwork/pushLimit`` pushed chunks the Model has not read.
        case full
        /// The stream is live: its real server sends what it sends, and closes it when it does.
        case live
    }

    /// Pushes `bytes` into open stream `id`, delivered at the Model's next read: "the server now sends this" (for a
    /// WebSocket, a text message).
    public func push(_ bytes: Data, into id: Int) async throws(StreamSteeringError) {
        guard liveStreams[id] == nil else { throw .live }
        guard streams[id] != nil else { throw .notOpen }
        guard streams[id]!.queue.pushed < Self.pushLimit else { throw .full }
        streams[id]!.enqueue(.init(due: await clock.now(), bytes: bytes, pushed: true))
        streams[id]!.notePending()
        wake(id)
    }

    /// Ends open stream `id` at the Model's next read, after what is due by now: closed by the server (`.close`,
    /// with `frame` for a WebSocket) or broken off (`.drop`); anything scripted for later is not sent.
    public func close(_ id: Int, with end: StreamScript.End, frame: WebSocketClose? = nil) async throws(StreamSteeringError) {
        guard liveStreams[id] == nil else { throw .live }
        guard streams[id] != nil else { throw .notOpen }
        let now = await clock.now()
        streams[id]!.queue.removeAll { $0.due > now }
        let isSocket = streams[id]!.exchange.stream?.kind == .webSocket
        streams[id]!.ending = .init(due: now, end: end, frame: isSocket && end == .close ? frame ?? WebSocketClose(code: 1000) : nil)
        // A gRPC call a test closes ends with OK, as its server's last word.
        if streams[id]!.call != nil, end == .close { streams[id]!.ending!.status = (.ok, trailers: [:]) }
        streams[id]!.notePending()
        wake(id)
    }
}

/// The wake of one read of a stream: by the clock reaching the stream's next item, or by a push, a close, an end or
/// the read's cancellation, whichever is first; the later ones do nothing. Fired from the clock's call and from the
/// network alike, so its own lock rather than either actor's state.
final class StreamWake: Sendable {
    private struct State {
        var fired = false
        var byClock = false
        var reader: UnsafeContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Whether the clock fired it (its call is then made, and needs no cancelling).
    var firedByClock: Bool { state.withCheckedLock(\.byClock) }

    /// Resumes `reader` once fired: at once if it was. (Synchronous, so that the read suspends where it runs, on the
    /// session's executor, not on a nonisolated function's.)
    func resume(_ reader: UnsafeContinuation<Void, Never>) {
        let fired = state.withCheckedLock { state in
            if !state.fired { state.reader = reader }
            return state.fired
        }
        if fired { reader.resume() }
    }

    /// Resumes the read, the first time only.
    func fire(byClock: Bool = false) {
        let reader = state.withCheckedLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.fired else { return nil }
            state.fired = true
            state.byClock = byClock
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume()
    }
}

/// A scripted stream's chunks as the Model's ``/Services/NetworkStream`` reads them.
private struct FakeStreamSource: NetworkStreamSource {
    let network: RoutedNetwork
    let id: Int

    func next() async throws(TransportError) -> Data? {
        try await network.nextChunk(of: id)?.bytes
    }

    func consumerLeft() {
        let network = network, id = id
        Task { await network.release(id) }
    }
}
