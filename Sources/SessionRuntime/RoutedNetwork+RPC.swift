import Fakes
public import Foundation
import HTTPTypes
import Synchronization
public import Services

/// A gRPC call in progress: its method's answerer and the replies it has left.
struct OpenCall {
    var answerer: any RPCAnswerer
    var replies: [RPCScript.Reply]
    /// The server's initial metadata, sent before anything else.
    var metadata: HTTPFields
    var metadataSent = false
    /// When the last message already queued is due: a status that waits for the client's end comes after it.
    var lastDue: Date
}

/// gRPC calls: matched by their first message's JSON form, then served like a WebSocket conversation on the same
/// queue, the server's messages due at offsets from the call's start or from the client message that cued them, and
/// the status last. The journal keeps one entry per call with every message both ways as JSON.
extension RoutedNetwork {
    public func rpc(_ request: NetworkRequest, first: Data?) async throws(TransportError) -> RPCCall {
        scope.checkCaller(of: "network.rpc")
        guard !Task.isCancelled, !scope.isClosed else { throw .cancelled }
        let path = URL(string: request.url)?.path ?? ""
        var matchable = request
        var unreadable: NearMiss?
        if let first, let answerer = rpcAnswerer(ofMethod: path) {
            switch answerer.requestJSON(first, of: path) {
            case .success(let json): matchable.body = json.jsonData
            case .failure(let error):
                unreadable = NearMiss(route: "", field: "/body", expected: "a request message of \(path)", actual: error.message)
            }
        }
        switch await match(matchable, call: true) {
        case .passThrough(let exchange):
            return try await openLiveCall(request, first: first, exchange)
        case .outcome(let outcome, var exchange):
            if var miss = unreadable {
                miss.route = exchange.route ?? ""
                exchange.nearMisses = [miss] + (exchange.nearMisses ?? [])
            }
            guard outcome.isResponse, case .response(let head) = outcome.result, let answerer = outcome.answerer as? any RPCAnswerer else {
                // A fault fails the call as a broken connection does; a plain HTTP answer ends it with the status
                // gRPC gives that HTTP status.
                let response = try await journalAndDeliver(outcome, exchange).result.get()
                return RPCCall(channel: EndedCall(status: RPCStatus(httpStatus: response.head.status.code)))
            }
            let script = answerer.script
            let id = try await openQueue(outcome, exchange, kind: .rpc) { stream, openedAt in
                for message in script.messages {
                    stream.enqueue(.init(due: openedAt.adding(message.offset), bytes: message.message, binary: true, journaled: message.json.jsonData))
                }
                let lastDue = openedAt.adding(script.messages.last?.offset ?? .zero)
                stream.call = OpenCall(answerer: answerer, replies: script.replies, metadata: head.head.headerFields, lastDue: lastDue)
                if let end = script.statusOffset {
                    stream.ending = .init(due: openedAt.adding(end), end: .close, status: (script.status, script.trailers))
                } else if first == nil {
                    stream.ending = .init(due: lastDue, end: .close, status: (script.status, script.trailers))
                }
            }
            return RPCCall(channel: FakeCall(network: self, id: id))
        }
    }

    /// The first answerer among the routes whose descriptor set has `path`: it reads that method's messages.
    func rpcAnswerer(ofMethod path: String) -> (any RPCAnswerer)? {
        for route in routes {
            for outcome in route.outcomes {
                if let answerer = outcome.answerer as? any RPCAnswerer, answerer.knows(path) { return answerer }
            }
        }
        return nil
    }

    /// The next thing the server of call `id` sends: its metadata first, then each message when it is due, then
    /// its status; nil after that.
    func callReceive(_ id: Int) async throws(TransportError) -> RPCEvent? {
        if let call = streams[id]?.call, !call.metadataSent {
            streams[id]!.call!.metadataSent = true
            return .metadata(call.metadata)
        }
        if let item = try await nextChunk(of: id) { return .message(item.bytes) }
        guard let (status, trailers) = endedCalls.removeValue(forKey: id) else { return nil }
        return .status(status, trailers: trailers)
    }

    /// The client's later message on call `id`: journaled, and answered by the first reply whose matcher takes its
    /// JSON form.
    func callSend(_ message: Data, on id: Int) async throws(TransportError) {
        let now = await clock.now()
        // Read after the clock: the call may have ended (the Model let go) while the clock was asked.
        guard let call = streams[id]?.call else { throw .connectionReset }
        let json = try? call.answerer.requestJSON(message, of: call.answerer.method).get()
        let text = json.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? message.base64EncodedString()
        streams[id]!.exchange.stream?.append(StreamChunk(time: now, text: text, sent: true, binary: json == nil ? true : nil))
        let asRequest = NetworkRequest(method: .post, url: URL(string: streams[id]!.exchange.url) ?? URL(string: "https://call.invalid")!,
                                       body: json?.jsonData ?? Data())
        if let index = call.replies.firstIndex(where: { $0.when.firstDifference(from: asRequest) == nil }) {
            let reply = call.replies[index]
            if reply.once { streams[id]!.call!.replies.remove(at: index) }
            for send in reply.send {
                let due = now.adding(send.offset)
                streams[id]!.enqueue(.init(due: due, bytes: send.message, binary: true, journaled: send.json.jsonData))
                streams[id]!.call!.lastDue = max(streams[id]!.call!.lastDue, due)
            }
        }
        streams[id]!.notePending()
        await journal(streams[id]!.exchange)
        wake(id)
    }

    /// The client ended its side of call `id`: a status that waits for that comes once the messages due have gone.
    func callFinishSending(_ id: Int) async {
        let now = await clock.now()
        guard let call = streams[id]?.call, streams[id]!.ending == nil else { return }
        let script = call.answerer.script
        streams[id]!.ending = .init(due: max(now, call.lastDue), end: .close, status: (script.status, script.trailers))
        wake(id)
    }
}

extension RPCStatus {
    /// The status gRPC gives a call whose server answered with HTTP status `httpStatus` instead (gRPC's
    /// http-grpc-status-mapping): 400 `INTERNAL`, 401 `UNAUTHENTICATED`, 403 `PERMISSION_DENIED`, 404 `UNIMPLEMENTED`,
    /// 429, 502, 503 and 504 `UNAVAILABLE`, any other `UNKNOWN`.
    init(httpStatus: Int) {
        let code = switch httpStatus {
        case 400: 13
        case 401: 16
        case 403: 7
        case 404: 12
        case 429, 502, 503, 504: 14
        default: 2
        }
        self.init(code: code, message: "the server answered HTTP \(httpStatus) instead of gRPC")
    }
}

/// A call the server ended at once with `status` (it answered plain HTTP).
private final class EndedCall: RPCChannel {
    private let events: Mutex<[RPCEvent]>

    init(status: RPCStatus) {
        events = Mutex([.status(status, trailers: [:])])
    }

    func receive() async throws(TransportError) -> RPCEvent? {
        events.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
    func send(_ message: Data) async throws(TransportError) { throw .connectionReset }
    func finishSending() async {}
    func consumerLeft() {}
}

/// A scripted call as grpc-swift's transport uses it.
private struct FakeCall: RPCChannel {
    let network: RoutedNetwork
    let id: Int

    func receive() async throws(TransportError) -> RPCEvent? {
        try await network.callReceive(id)
    }

    func send(_ message: Data) async throws(TransportError) {
        try await network.callSend(message, on: id)
    }

    func finishSending() async {
        await network.callFinishSending(id)
    }

    func consumerLeft() {
        let network = network, id = id
        Task { await network.release(id) }
    }
}
