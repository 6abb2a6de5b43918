import Foundation
import HTTPTypes
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
}
