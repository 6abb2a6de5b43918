import Fakes
import Foundation
import HTTPTypes
import Services

/// Live gRPC calls: a live route's (or a live or record scenario's) call, opened by the live network and relayed
/// message by message, each journaled as JSON when a route's descriptor set knows the method (else as base64).
extension RoutedNetwork {
    /// Opens `request`'s call on the live network and relays it.
    func openLiveCall(_ request: NetworkRequest, first: Data?, _ arrived: NetworkExchange) async throws(TransportError) -> RPCCall {
        // The live network's own tasks (the HTTP/2 connection's) are the daemon's, not the Model's.
        let (upstream, opened) = try await openUpstream(arrived) { network async throws(TransportError) -> RPCCall in
            try await SessionScope.$current.withValue(nil) { () async -> Result<RPCCall, TransportError> in
                do throws(TransportError) { return .success(try await network.rpc(request, first: first)) } catch { return .failure(error) }
            }.get()
        }
        var exchange = opened
        exchange.status = 200
        exchange.stream = StreamTranscript(kind: .rpc, openedAt: await clock.now(), pending: 0, nextAt: nil)
        liveStreams[exchange.sequence] = exchange
        await journal(exchange)
        let path = URL(string: request.url)?.path ?? ""
        return RPCCall(channel: LiveCallRelay(network: self, id: exchange.sequence, path: path, upstream: upstream.channel))
    }

    /// The server's next event on live call `id`, journaled; the wait is work under way, as a live stream's is.
    func relayCallReceive(_ id: Int, path: String, from upstream: any RPCChannel) async throws(TransportError) -> RPCEvent? {
        let event: RPCEvent?
        do {
            let next = { () async throws(TransportError) -> RPCEvent? in try await upstream.receive() }
            event = try await waitingForLive(next)
        } catch {
            await endLive(id, how: error == .cancelled ? .cancelled : .dropped, fault: error == .cancelled ? nil : error)
            throw error
        }
        switch event {
        case .message(let bytes)?:
            await noteLiveMessage(bytes, on: id, path: path, sent: false)
        case .status(let status, _)?:
            await endLive(id, how: .closed, close: WebSocketClose(code: status.code, reason: status.message))
        case .metadata?, nil:
            break
        }
        return event
    }

    /// Sends the Model's `message` on live call `id`, journaled.
    func relayCallSend(_ message: Data, on id: Int, path: String, to upstream: any RPCChannel) async throws(TransportError) {
        await noteLiveMessage(message, on: id, path: path, sent: true)
        let send = { () async throws(TransportError) in try await upstream.send(message) }
        try await waitingForLive(send)
    }

    private func noteLiveMessage(_ message: Data, on id: Int, path: String, sent: Bool) async {
        guard liveStreams[id] != nil else { return }
        let answerer = rpcAnswerer(ofMethod: path)
        let json = sent ? try? answerer?.requestJSON(message, of: path).get() : try? answerer?.responseJSON(message, of: path).get()
        let text = json.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? message.base64EncodedString()
        liveStreams[id]!.stream?.append(StreamChunk(time: await clock.now(), text: text, sent: sent ? true : nil, binary: json == nil ? true : nil))
        await journal(liveStreams[id]!)
    }
}

/// A live call as the Model's transport uses it: each message through the network fake, which journals it.
private struct LiveCallRelay: RPCChannel {
    let network: RoutedNetwork
    let id: Int
    let path: String
    let upstream: any RPCChannel

    func receive() async throws(TransportError) -> RPCEvent? {
        try await network.relayCallReceive(id, path: path, from: upstream)
    }

    func send(_ message: Data) async throws(TransportError) {
        try await network.relayCallSend(message, on: id, path: path, to: upstream)
    }

    func finishSending() async {
        await upstream.finishSending()
    }

    func consumerLeft() {
        upstream.consumerLeft()
        let network = network, id = id
        Task { await network.endLive(id, how: .cancelled) }
    }
}
