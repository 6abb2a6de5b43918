import Fakes
import Foundation
import HTTPTypes
import ScenarioFormat
import Services
import SessionRuntime
import Testing

/// Issue 29, item 4: a recorded WebSocket conversation becomes a scripted one whose replies are cued by the Model's
/// messages, so a replay answers when its Model asks; a message answered differently each time gets `once` replies.
@Suite struct RecordedWebSocketTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func conversation() -> RecordedConversation {
        func server(_ ms: Int, _ text: String) -> RecordedConversation.Message { .init(offset: .milliseconds(ms), message: .text(text), sent: false) }
        func model(_ ms: Int, _ text: String) -> RecordedConversation.Message { .init(offset: .milliseconds(ms), message: .text(text), sent: true) }
        return RecordedConversation(messages: [
            server(50, "welcome"),
            model(100, #"{"type":"ping"}"#),
            server(110, "pong 1"),
            .init(offset: .milliseconds(200), message: .binary(Data([1, 2])), sent: true),
            .init(offset: .milliseconds(210), message: .binary(Data([3, 255])), sent: false),
            model(300, #"{"type":"ping"}"#),
            server(305, "pong 2"),
            model(400, #"{"token":"s3cret","type":"auth"}"#),
            server(420, #"{"ok":true,"session_token":"abc"}"#),
        ], close: .init(offset: .milliseconds(500), frame: WebSocketClose(code: 1005)))
    }

    /// The recording written as a scenario, saved and loaded back as any scenario is.
    func loaded(keepSecrets: Bool) throws -> WebSocketScript {
        let exchange = RecordedExchange(sequence: 1, request: NetworkRequest(method: .get, url: URL(string: "wss://chat.example/socket")!),
                                        result: .success(NetworkResponse(status: 101)), conversation: Self.conversation())
        let origin = RecordedScenario.Origin(description: "A recorded chat.", model: "FeedReader",
                                             clock: ClockSettings(start: Self.start, mode: .frozen), header: "Recorded by a test.")
        let recorded = RecordedScenario(name: "chat-recorded", origin: origin, exchanges: [exchange], keepSecrets: keepSecrets)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-recorded-socket-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try recorded.write(into: root)
        let catalog = ScenarioCatalog.load(from: [root], models: ["FeedReader"])
        let outcome = try #require(catalog.scenarios["chat-recorded"]?.routes.first?.outcomes.first, "\(catalog.problems)")
        return try #require(outcome.webSocket)
    }

    @Test func serverMessagesBecomeTheConnectsOrTheRepliesToTheModelsMessageBeforeThem() throws {
        let script = try loaded(keepSecrets: true)
        #expect(script.onConnect == [.init(offset: .milliseconds(50), message: .text("welcome"))])
        #expect(script.replies.map(\.once) == [true, false, false])
        #expect(script.replies.map(\.send) == [
            // A binary message of the Model's cues nothing: the server's binary answer stays with the ping before.
            [.init(offset: .milliseconds(10), message: .text("pong 1")), .init(offset: .milliseconds(110), message: .binary(Data([3, 255])))],
            [.init(offset: .milliseconds(5), message: .text("pong 2"))],
            [.init(offset: .milliseconds(20), message: .text(#"{"ok":true,"session_token":"abc"}"#))],
        ])
        // A close without a code a frame may carry replays as the default.
        #expect(script.close == .init(offset: .milliseconds(500), frame: WebSocketClose(code: 1000)))
    }

    @Test func secretsAreLeftOutOfTheMatchersAndRedactedInTheServersMessages() throws {
        let script = try loaded(keepSecrets: false)
        #expect(script.replies[2].send == [.init(offset: .milliseconds(20), message: .text(#"{"ok":true,"session_token":"<redacted>"}"#))])
        let auth = { (token: String) in NetworkRequest(method: .post, url: URL(string: "wss://chat.example/socket")!, body: Data(#"{"token":"\#(token)","type":"auth"}"#.utf8)) }
        #expect(script.replies[2].when.firstDifference(from: auth("another")) == nil, "any token matches once it is left out")
        #expect(script.replies[0].when.firstDifference(from: auth("s3cret")) != nil)
    }

    /// Replayed, the first ping gets the first answer and every later one the last, as a `once` reply says.
    @Test func aReplayAnswersEachPingAsRecorded() async throws {
        let script = try loaded(keepSecrets: true)
        let clock = VirtualClock(start: Self.start, mode: .frozen)
        let network = RoutedNetwork(routes: [Route(name: "socket", matcher: RequestMatcher(),
                                                   outcomes: [RouteOutcome(.response(NetworkResponse(status: 101)), webSocket: script)])],
                                    clock: clock) { _ in }
        let heard = Heard()
        let request = NetworkRequest(method: .get, url: URL(string: "wss://chat.example/socket")!)
        await clock.spawnAndSettle {
            guard let connection = try? await network.webSocket(request) else { return }
            await heard.keep(connection)
            do {
                for try await message in connection.messages {
                    if case .text(let text) = message { await heard.append(text) } else { await heard.append("<binary>") }
                }
            } catch {
                await heard.append("<\(error)>")
            }
        }
        let connection = try #require(await heard.connection)
        await clock.advance(by: .milliseconds(100))
        for _ in 0..<3 {
            await clock.spawnAndSettle { try? await connection.send(.text(#"{"type":"ping"}"#)) }
            await clock.advance(by: .milliseconds(120))
        }
        #expect(await heard.texts == ["welcome", "pong 1", "<binary>", "pong 2", "pong 2"])
    }

    actor Heard {
        var texts: [String] = []
        var connection: WebSocketConnection?
        func append(_ text: String) { texts.append(text) }
        func keep(_ connection: WebSocketConnection) { self.connection = connection }
    }
}
