import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import LiveServices
import NIOCore
import NIOWebSocket
import Services
import Testing

/// The live network's WebSocket client against a WebSocket server this test starts on loopback (Hummingbird's).
@Suite struct LiveWebSocketTests {
    /// `/echo` greets, echoes each message, and closes with 4001 "done" when told "bye"; `/silent` never says a
    /// word; every other path refuses the upgrade, as a server that does not speak WebSocket there does.
    static let server: HTTPServerBuilder = .http1WebSocketUpgrade { request, _, _ in
        switch request.path {
        case "/echo":
            return .upgrade([:]) { inbound, outbound, _ in
                try await outbound.write(.text("hello \(request.headerFields[HTTPField.Name("X-Who")!] ?? "stranger")"))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    switch message {
                    case .text("bye"):
                        try await outbound.close(.unknown(4001), reason: "done")
                        return
                    case .text(let text): try await outbound.write(.text(text))
                    case .binary(let buffer): try await outbound.write(.binary(buffer))
                    }
                }
            }
        case "/silent":
            return .upgrade([:]) { inbound, _, _ in
                for try await _ in inbound {}
            }
        default:
            return .dontUpgrade
        }
    }

    static func socket(_ url: String, headers: HTTPFields = [:]) -> NetworkRequest {
        NetworkRequest(method: .get, url: URL(string: url)!, headerFields: headers)
    }

    @Test func aConversationGoesBothWaysAndEndsWithTheServersCloseFrame() async throws {
        try await withLoopbackServer(Router(), server: Self.server) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            let url = origin.replacingOccurrences(of: "http://", with: "ws://") + "/echo"
            let connection = try await network.webSocket(Self.socket(url, headers: [HTTPField.Name("X-Who")!: "model"]))
            var messages = connection.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("hello model"), "the handshake's own headers reach the server")
            try await connection.send(.text("one"))
            #expect(try await messages.next() == .text("one"))
            try await connection.send(.binary(Data([0, 1, 255])))
            #expect(try await messages.next() == .binary(Data([0, 1, 255])))
            try await connection.send(.text("bye"))
            #expect(try await messages.next() == nil)
            #expect(await connection.serverClose() == WebSocketClose(code: 4001, reason: "done"))
        }
    }

    @Test func theModelsCloseEndsReadingAndSending() async throws {
        try await withLoopbackServer(Router(), server: Self.server) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            let connection = try await network.webSocket(Self.socket(origin.replacingOccurrences(of: "http://", with: "ws://") + "/silent"))
            await connection.close(code: 1000, reason: "leaving")
            var messages = connection.messages.makeAsyncIterator()
            #expect(try await messages.next() == nil)
            #expect(await connection.serverClose() == nil, "the Model closed it, not the server")
            await #expect(throws: TransportError.connectionReset) { try await connection.send(.text("late")) }
        }
    }

    @Test func cancellingAWaitingReadThrowsCancelled() async throws {
        try await withLoopbackServer(Router(), server: Self.server) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            let connection = try await network.webSocket(Self.socket(origin.replacingOccurrences(of: "http://", with: "ws://") + "/silent"))
            let read = Task { () async throws(TransportError) -> Bool in
                var messages = connection.messages.makeAsyncIterator()
                return try await messages.next() != nil
            }
            read.cancel()
            await #expect(throws: TransportError.cancelled) { try await read.value }
            await connection.close()
        }
    }

    @Test func aServerThatDoesNotUpgradeRefusesTheConnection() async throws {
        try await withLoopbackServer(Router(), server: Self.server) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            await #expect(throws: TransportError.connectionRefused) {
                try await network.webSocket(Self.socket(origin.replacingOccurrences(of: "http://", with: "ws://") + "/feed"))
            }
        }
    }

    @Test func nothingListeningIsConnectionRefused() async throws {
        let port = try closedLoopbackPort()
        let network = LiveNetwork()
        defer { Task { await network.shutdown() } }
        await #expect(throws: TransportError.connectionRefused) { try await network.webSocket(Self.socket("ws://127.0.0.1:\(port)/echo")) }
    }

    /// A `wss` URL follows the forward of its `https` origin, so one line sends a service's requests and sockets.
    @Test func aSocketFollowsItsWebOriginsForward() async throws {
        try await withLoopbackServer(Router(), server: Self.server) { origin in
            let network = LiveNetwork(configuration: .init(forward: ["https://assistant.example": origin]))
            defer { Task { await network.shutdown() } }
            let connection = try await network.webSocket(Self.socket("wss://assistant.example/echo"))
            var messages = connection.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("hello stranger"))
            await connection.close()
        }
    }
}
