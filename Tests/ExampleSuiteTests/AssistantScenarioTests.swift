import Assistant
import ControlAPI
import Foundation
import ScenarioClient
import ScenarioTesting
import Services
import Testing

/// The two ways a suite reaches the shipped Assistant: hosted in the test process, or by the scenariod daemon.
enum AssistantMode: String, CaseIterable, Sendable {
    case inProcess
    case daemon

    func start() async throws -> TestDaemon {
        switch self {
        case .inProcess: try TestDaemon.inProcess(models: [Assistant.self])
        case .daemon: try await TestDaemon.shared.value
        }
    }
}

struct Chat: Decodable, Sendable, Equatable {
    struct Message: Decodable, Sendable, Equatable { var role: String; var text: String; var status: String }
    var messages: [Message]
    var isReplying: Bool
    var error: String?
    var assistantOnline: Bool
    var assistantTyping: Bool
    var presenceError: String?
    var reply: Message? { messages.last }
}

/// Issue 29: a reply streamed over server-sent events, read at every virtual instant, in both ScenarioTesting modes.
@Suite struct AssistantScenarioTests {
    static let tokens = ["Scenarios ", "swap the ", "services, ", "not the ", "server."]

    @Test(arguments: AssistantMode.allCases)
    func theReplyGrowsAtEachOffsetAndIsCompleteAtThreeSeconds(mode: AssistantMode) async throws {
        try await withScenario("assistant-happy", daemon: try await mode.start()) { session in
            var chat = try await session.perform("send", ["text": "What is scenariod?"], as: Chat.self)
            #expect(chat.reply == .init(role: "assistant", text: "", status: "streaming"))
            for step in 1...5 {
                _ = try await session.advanceClock(by: "500ms")
                chat = try await session.state(as: Chat.self)
                #expect(chat.reply?.text == Self.tokens.prefix(step).joined(), "at +\(step * 500)ms")
                #expect(chat.reply?.status == "streaming")
            }
            _ = try await session.advanceClock(by: "500ms")
            chat = try await session.state(as: Chat.self)
            #expect(chat.reply == .init(role: "assistant", text: Self.tokens.joined(), status: "complete"))
            #expect(!chat.isReplying)

            let entry = try #require(try await session.requests().first { $0.url.hasSuffix("/replies") })
            let transcript = try #require(entry.stream)
            #expect(transcript.kind == .events)
            #expect(transcript.chunks.count == 6)
            #expect(transcript.chunks.map { $0.time.timeIntervalSince(entry.time) } == [0.5, 1, 1.5, 2, 2.5, 3])
            #expect(try await session.client.streams(session: session.id).map(\.kind) == [.webSocket])
        }
    }

    @Test(arguments: AssistantMode.allCases)
    func aReplyCutOffMidStreamIsKeptAndRetried(mode: AssistantMode) async throws {
        try await withScenario("assistant-dropped", daemon: try await mode.start()) { session in
            try await session.perform("send", ["text": "Hi"])
            _ = try await session.advanceClock(by: "1500ms")
            var chat = try await session.state(as: Chat.self)
            #expect(chat.reply == .init(role: "assistant", text: "Scenarios swap ", status: "streaming"))
            _ = try await session.advanceClock(by: "200ms")
            chat = try await session.state(as: Chat.self)
            #expect(chat.reply == .init(role: "assistant", text: "Scenarios swap ", status: "failed"))
            #expect(chat.error == "The reply was cut off: The connection was reset.")

            try await session.perform("retry")
            _ = try await session.advanceClock(by: "3200ms")
            chat = try await session.state(as: Chat.self)
            #expect(chat.messages.count == 2)
            #expect(chat.reply == .init(role: "assistant", text: Self.tokens.joined(), status: "complete"))
            let streams = try await session.requests().compactMap(\.stream).filter { $0.kind == .events }
            // The retried reply ran to its script's end, where the Model stopped reading: its server closed it.
            #expect(streams.map(\.state) == [.dropped, .closed])
            #expect(streams.first?.fault == "connectionReset")
        }
    }

    /// "The server now sends this": a presenter or test pushes into a stalled stream, then ends it.
    @Test(arguments: AssistantMode.allCases)
    func aTestPushesTheRestOfAStalledReply(mode: AssistantMode) async throws {
        try await withScenario("assistant-stalled", daemon: try await mode.start()) { session in
            try await session.perform("send", ["text": "Hi"])
            _ = try await session.advanceClock(by: "1m")
            let open = try #require(try await session.client.streams(session: session.id).first { $0.kind == .events })
            #expect(open.delivered == 1)
            #expect(open.pending == 0)
            #expect(open.route == "reply")
            let pushed = try await session.client.pushToStream(open.stream, PushToStreamRequest(data: #"{"text":" hard"}"#, event: "token"),
                                                               session: session.id)
            #expect(try JSONDecoder.services.decode(Chat.self, from: pushed.jsonData).reply?.text == "Thinking hard")
            let closed = try await session.client.closeStream(open.stream, fault: .timeout, session: session.id)
            #expect(try JSONDecoder.services.decode(Chat.self, from: closed.jsonData).error == "The reply was cut off: The request timed out.")
            let refused = await #expect(throws: ScenarioClientError.self) {
                try await session.client.closeStream(open.stream, session: session.id)
            }
            #expect(refused?.description.contains("has no open stream") == true, "\(String(describing: refused))")
        }
    }

    /// The presence WebSocket: online after its first message, typing while a reply streams (a reply the server
    /// chose by matching the Model's message), and a close code the Model reports.
    @Test(arguments: AssistantMode.allCases)
    func thePresenceChannelFollowsTheConversationAndReportsItsCloseCode(mode: AssistantMode) async throws {
        let daemon = try await mode.start()
        try await withScenario("assistant-happy", daemon: daemon) { session in
            #expect(try await session.state(as: Chat.self).assistantOnline == false)
            _ = try await session.advanceClock(by: "100ms")
            #expect(try await session.state(as: Chat.self).assistantOnline)
            let typing = try await session.perform("send", ["text": "Hi"], as: Chat.self)
            #expect(typing.assistantTyping)
            _ = try await session.advanceClock(by: "2999ms")
            #expect(try await session.state(as: Chat.self).assistantTyping)
            _ = try await session.advanceClock(by: "1ms")
            #expect(try await session.state(as: Chat.self).assistantTyping == false)

            let socket = try #require(try await session.requests().first { $0.url.hasPrefix("wss:") }?.stream)
            #expect(socket.kind == .webSocket)
            #expect(socket.chunks.map { ($0.sent == true ? "> " : "< ") + $0.text } == [
                #"< {"online":true,"type":"online"}"#, #"> {"type":"sent"}"#,
                #"< {"type":"typing","typing":true}"#, #"< {"type":"typing","typing":false}"#,
            ])
            // The server side closes it now, with a frame of the test's choosing.
            let open = try #require(try await session.client.streams(session: session.id).first { $0.kind == .webSocket })
            let closed = try await session.client.closeWebSocket(open.stream, code: 4001, reason: "maintenance", session: session.id)
            let chat = try JSONDecoder.services.decode(Chat.self, from: closed.jsonData)
            #expect(chat.presenceError == "Presence closed (4001: maintenance).")
            #expect(!chat.assistantOnline)
        }
        try await withScenario("assistant-socket-error", daemon: daemon) { session in
            _ = try await session.advanceClock(by: "4999ms")
            #expect(try await session.state(as: Chat.self).assistantOnline)
            _ = try await session.advanceClock(by: "1ms")
            let chat = try await session.state(as: Chat.self)
            #expect(chat.presenceError == "Presence closed (1011: presence service restarting).")
            #expect(!chat.assistantOnline)
        }
    }

    /// The same steps give byte-identical states and journals, at every instant, over 16 sessions at once.
    @Test(arguments: AssistantMode.allCases)
    func sixteenParallelSessionsStreamIdentically(mode: AssistantMode) async throws {
        let daemon = try await mode.start()
        let runs = try await withThrowingTaskGroup(of: [Data].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await withScenario("assistant-dropped", daemon: daemon) { session in
                        var seen: [Data] = []
                        try await session.perform("send", ["text": "Hi"])
                        for move in ["700ms", "300ms", "600ms", "100ms"] {
                            _ = try await session.advanceClock(by: move)
                            seen.append(try await session.state(as: JSONValue.self).jsonData)
                        }
                        try await session.perform("retry")
                        for _ in 0..<8 {
                            _ = try await session.advanceClock(by: "450ms")
                            seen.append(try await session.state(as: JSONValue.self).jsonData)
                        }
                        seen.append(try JSONEncoder.services.encode(try await session.requests()))
                        return seen
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 16)
        #expect(Set(runs).count == 1)
    }
}
