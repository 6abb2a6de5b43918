import ControlAPI
import Foundation
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOWebSocket
import ScenarioHost
import Services

/// A session endpoint's WebSocket handshakes: each opens a WebSocket through the session's network (a route's scripted
/// conversation on the session's clock, or a live server), and the endpoint carries the messages both ways. The
/// opening, the client's messages and its close are steps of the session's history.
extension EndpointAnswer {
    /// The handler of one upgraded connection.
    typealias SocketHandler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    /// Whether to upgrade the handshake `head`: admitted, mapped and opened as a plain request would be. A refused
    /// handshake is answered here with the refusal (or the route's own answer) and its connection closed; the
    /// upgrade is then declined.
    func upgrade(_ head: HTTPRequest, channel: any Channel, peer: PeerCredentials?) async -> ShouldUpgradeResult<SocketHandler> {
        var fields = head.headerFields
        if let refused = admission(of: head, peer: peer, fields: &fields) {
            return await refuse(refused, on: channel)
        }
        for name in Self.hopByHop + Self.handshakeFields { fields[name] = nil }
        let url: URL
        switch await destination(of: head, fields: &fields, target: head.path ?? "/", webSocket: true) {
        case .success(let found): url = found
        case .failure(let refused): return await refuse(refused.refusal, on: channel)
        }
        // The connection is the socket's from here: no request head to wait for, no body to frame.
        for name in SessionEndpoint.httpHandlerNames { try? await channel.pipeline.removeHandler(name: name).get() }
        let (events, delivery) = AsyncStream.makeStream(of: OutsideSocket.Event.self)
        let opened: OutsideRequest
        do throws(HostError) {
            opened = try await session.openSocketFromOutside(NetworkRequest(method: .get, url: url, headerFields: fields)) { event in
                delivery.yield(event)
                if case .message = event { return }
                delivery.finish()
            }
        } catch {
            return await refuse(gone(error), on: channel)
        }
        let sequence = opened.arrived?.sequence ?? 0
        let result = await opened.answer()
        guard case .success(let response) = result, response.head.status == .switchingProtocols,
              let socket = session.outsideSocket(sequence) else {
            // The route's plain answer (a 404, say) or its fault, as a server refusing the upgrade sends it.
            guard let whole = whole(result, sequence: sequence) else {
                try? await channel.close()
                return .dontUpgrade
            }
            return await refuse(whole, on: channel)
        }
        var answer: HTTPFields = [Self.sequenceField: "\(sequence)"]
        // A client that offers subprotocols (graphql-transport-ws, say) fails a handshake that picks none, as
        // Chromium does: the first offered is taken, as the route serves whatever the client speaks.
        let offered = head.headerFields[.secWebSocketProtocol]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        if let offered, !offered.isEmpty { answer[.secWebSocketProtocol] = offered }
        return .upgrade(answer) { inbound, outbound, _ in
            try await converse(socket, inbound: inbound, outbound: outbound, events: events, channel: channel)
        }
    }

    /// The handshake's own fields, which the upgrade answers; the app's (`Sec-WebSocket-Protocol`, cookies) go on.
    private static let handshakeFields: [HTTPField.Name] = [.secWebSocketKey, .secWebSocketVersion, .secWebSocketExtensions]

    /// Carries one socket's messages both ways until either side closes: the server's as the session's clock delivers
    /// them, the client's each a step of the session.
    private func converse(_ socket: OutsideSocket, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                          events: AsyncStream<OutsideSocket.Event>, channel: any Channel) async throws {
        let session = session
        let server = Task {
            for await event in events {
                switch event {
                case .message(.text(let text)): try await outbound.write(.text(text))
                case .message(.binary(let data)): try await outbound.write(.binary(ByteBuffer(data: data)))
                case .closed(let frame?):
                    try await outbound.close(WebSocketErrorCode(codeNumber: frame.code), reason: frame.reason)
                case .closed(nil), .broken(.cancelled):
                    try await outbound.close(.init(codeNumber: 1012), reason: "session '\(session.id)' was reset, rewound or deleted")
                // A reset fault breaks the connection off, as a server's reset would.
                case .broken(.connectionReset): try await channel.close()
                case .broken(let fault):
                    try await outbound.close(.unexpectedServerError, reason: "\(fault.rawValue): \(fault.description)")
                }
            }
        }
        defer { server.cancel() }
        do {
            for try await message in inbound.messages(maxSize: SessionEndpoint.bodyLimit) {
                switch message {
                case .text(let text): try await session.send(.text(text), on: socket)
                case .binary(let buffer): try await session.send(.binary(Data(buffer: buffer)), on: socket)
                }
            }
        } catch let error as HostError {
            // The session let go of the socket (reset, rewound, deleted): the client is told so, as a restarting server
            // would (1012); one holding too much to take the message asks it to come back later (1013).
            logger.info("WebSocket \(socket.sequence) of session \(session.id) closed: \(error.message)")
            let code = error.code == .tooMuchHeld ? 1013 : 1012
            try await outbound.close(.init(codeNumber: code), reason: String(error.message.prefix(120)))
            return
        }
        // The client closed (or went): so does the session's side.
        try? await session.close(socket, frame: WebSocketClose(code: 1000))
    }

    /// Answers the handshake with `refusal` and closes its connection, declining the upgrade: the client reads why,
    /// as it would from a server that refused it.
    private func refuse(_ refusal: Refusal, on channel: any Channel) async -> ShouldUpgradeResult<SocketHandler> {
        var headers = HTTPHeaders(refusal.head.headerFields.map { ($0.name.rawName, $0.value) })
        headers.replaceOrAdd(name: "connection", value: "close")
        let status = HTTPResponseStatus(statusCode: refusal.head.status.code, reasonPhrase: refusal.head.status.reasonPhrase)
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(refusal.body)), promise: nil)
        try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
        try? await channel.close()
        return .dontUpgrade
    }
}
