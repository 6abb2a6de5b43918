import Foundation
import HTTPTypes
import ScenarioFormat
import ScenarioHost
import Services
import Synchronization
import Testing

/// WebSockets a client opens through a session's network from outside (a session endpoint's upgrade): the route's
/// conversation on the session's clock, its opening, messages and close steps that a rewind replays, and a client's
/// socket let go of once the session it opened in is gone.
@Suite struct OutsideSocketTests {
    /// What the client was sent, in order.
    final class Heard: Sendable {
        let events = Mutex<[String]>([])
        func receive(_ event: OutsideSocket.Event) {
            let line = switch event {
            case .message(.text(let text)): text
            case .message(.binary(let data)): "\(data.count) bytes"
            case .closed(let frame): "closed \(frame?.code ?? 0)"
            case .broken(let fault): "broken \(fault.rawValue)"
            }
            events.withLock { $0.append(line) }
        }
        var lines: [String] { events.withLock { $0 } }
    }

    static let presence = NetworkRequest(method: .get, url: URL(string: "wss://assistant.example/v1/presence")!)

    @Test func aConversationRunsOnTheClockAndARewindReplaysItWithoutTheClient() async throws {
        let session = try await makeHost().createSession(of: "assistant-happy")
        let heard = Heard()
        let opened = try await session.openSocketFromOutside(Self.presence) { heard.receive($0) }
        guard case .success(let handshake) = await opened.answer() else { Issue.record("no handshake"); return }
        #expect(handshake.head.status == .switchingProtocols)
        let sequence = try #require(opened.arrived).sequence
        let socket = try #require(session.outsideSocket(sequence))
        #expect(heard.lines.isEmpty, "online is due at +100ms")
        _ = try await session.advanceClock(by: .milliseconds(100))
        try await session.send(.text(#"{"type":"sent"}"#), on: socket)
        _ = try await session.advanceClock(by: .seconds(3))
        #expect(heard.lines == [#"{"online":true,"type":"online"}"#, #"{"type":"typing","typing":true}"#, #"{"type":"typing","typing":false}"#])
        let kinds = await session.history().steps.map(\.change).map { "\($0)".prefix { $0 != "(" } }
        #expect(kinds == ["start", "openSocket", "advanceClock", "sendToSocket", "advanceClock"])

        let before = try #require(session.journalEntry(sequence))
        _ = try await session.rewind(to: 4)
        #expect(session.journalEntry(sequence) == before, "the replay sends what the client sent, when it did")
        // The client's socket was the session's before the rewind; the replay's is another.
        #expect(session.outsideSocket(sequence) !== socket)
        #expect(heard.lines.last == "broken cancelled")
        await #expect(throws: HostError.self) { try await session.send(.text("late"), on: socket) }
    }

    @Test func theClientsCloseIsAStepAndAPlainRouteRefusesTheHandshake() async throws {
        let session = try await makeHost().createSession(of: "assistant-happy")
        let opened = try await session.openSocketFromOutside(Self.presence) { _ in }
        let sequence = try #require(opened.arrived).sequence
        let socket = try #require(session.outsideSocket(sequence))
        try await session.close(socket, frame: WebSocketClose(code: 1000))
        #expect(session.outsideSocket(sequence) == nil)
        #expect(session.journalEntry(sequence)?.stream?.close == WebSocketClose(code: 1000))
        // A second close changes nothing, and is no step.
        try await session.close(socket, frame: WebSocketClose(code: 1000))
        #expect(await session.history().steps.count == 3)

        // A route with no conversation answers plainly: the handshake gets its answer, and no socket opens.
        let demo = try await makeHost().createSession(of: "offline-demo")
        let plain = NetworkRequest(method: .get, url: URL(string: "https://www.cocoawithlove.com/feed.json")!)
        let refused = try await demo.openSocketFromOutside(plain) { _ in }
        let answer = await refused.answer()
        guard case .success(let response) = answer else { Issue.record("\(answer)"); return }
        #expect(response.head.status == .ok)
        #expect(demo.outsideSocket(try #require(refused.arrived).sequence) == nil)
    }

    /// A client that talks and never moves the clock: 100,000 messages on one socket, each answered at once while its
    /// later reply (+3 s) waits with all the others. Each is answered in turn (the queue of what is due stays cheap
    /// however much waits), and the history and journal stay within their bounds.
    @Test func aHundredThousandMessagesOnOneSocketStayInOrderAndWithinBounds() async throws {
        let limits = HostLimits(sessions: 4, subscribersPerSession: 4, subscribers: 8, journalBytes: 1 << 20, historyBytes: 1 << 20)
        let host = makeHost(limits: limits)
        let session = try await host.createSession(of: "assistant-happy")
        let heard = Heard()
        let opened = try await session.openSocketFromOutside(Self.presence) { heard.receive($0) }
        let sequence = try #require(opened.arrived).sequence
        let socket = try #require(session.outsideSocket(sequence))
        _ = try await session.advanceClock(by: .milliseconds(100))
        let count = 100_000
        for _ in 0..<count { try await session.send(.text(#"{"type":"sent"}"#), on: socket) }
        let lines = heard.lines
        #expect(lines.count == count + 1)
        #expect(lines.dropFirst().allSatisfy { $0 == #"{"type":"typing","typing":true}"# })
        #expect(session.journalEntry(sequence)?.stream?.pending == count, "every +3 s reply still waits")

        let history = await session.history()
        #expect(history.overflowed && history.bytes <= limits.historyBytes)
        #expect(host.heldBytes.journal <= limits.journalBytes)

        try await session.close(socket, frame: WebSocketClose(code: 1000))
        #expect(session.outsideSocket(sequence) == nil)
        #expect(session.journalEntry(sequence)?.stream?.state == .cancelled, "the client let go of it")
    }

    /// A client that talks without moving the clock cannot make the server hold without bound what it will send
    /// later: past 16 MiB the server closes the conversation with 1013, after what is
    /// due by now, and the session holds nothing more for it.
    @Test func repliesPilingUpPastTheirBoundCloseTheSocketWith1013() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("piling-\(UUID().uuidString)/piling")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let big = String(repeating: "x", count: 64 << 10)
        try Data("""
            description: Every message is answered now, and with 64 KiB an hour later.
            model: FeedReader
            network:
              routes:
                - name: big
                  request: {method: GET, url: wss://big.example/socket}
                  response:
                    webSocket:
                      replies:
                        - when: {bodyText: {present: true}}
                          send: [{text: ok}, {at: +1h, text: \(big)}]
            """.utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
        let catalog = ScenarioCatalog.load(from: [directory.deletingLastPathComponent()], models: shippedModels.names)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        let session = try await SessionHost(catalog: catalog, models: shippedModels).createSession(of: "piling")
        let heard = Heard()
        let opened = try await session.openSocketFromOutside(NetworkRequest(method: .get, url: URL(string: "wss://big.example/socket")!)) { heard.receive($0) }
        let sequence = try #require(opened.arrived).sequence
        let socket = try #require(session.outsideSocket(sequence))
        // RoutedNetwork.waitingBytesLimit, the documented 16 MiB (the engine's runtime is not the tests' to import).
        let fits = (16 << 20) / (big.utf8.count + 2)
        for _ in 0...fits { try await session.send(.text("hello"), on: socket) }
        // The message that would pass the bound is not answered: the server closes instead.
        #expect(heard.lines.count == fits + 1, "each message that fits answered now, then the close")
        #expect(heard.lines.dropLast().allSatisfy { $0 == "ok" })
        #expect(heard.lines.last == "closed 1013")
        #expect(session.outsideSocket(sequence) == nil)
        let transcript = try #require(session.journalEntry(sequence)?.stream)
        #expect(transcript.state == .closed && transcript.close?.code == 1013 && transcript.pending == 0)
    }
}
