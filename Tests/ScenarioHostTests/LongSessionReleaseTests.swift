import Assistant
import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// What a long session holds — 100,000 streamed chunks, 100,000 WebSocket messages, a 100,000-step history — is let
/// go of without a recursion that grows with it: deleting, resetting or rewinding such a session once overflowed the
/// stack and took the whole daemon down (a clock's tick handler wrapped in a thunk per chunk).
@Suite(.serialized) struct LongSessionReleaseTests {
    static let count = 100_000

    /// A scenario directory with `long-stream` (100,000 events 1 ms apart, then `done`) and `long-socket`
    /// (100,000 presence messages 1 ms apart).
    static func catalog() throws -> (ScenarioCatalog, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("long-session-\(UUID())")
        for name in ["long-stream", "long-socket"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        var events = ""
        var messages = ""
        for index in 1...count {
            events += #"{"at": "+\#(index)ms", "event": "token", "data": {"text": "x"}}"# + "\n"
            messages += #"- {at: +\#(index)ms, json: {type: typing, typing: \#(index % 2 == 0)}}"# + "\n"
        }
        events += #"{"at": "+\#(count + 1)ms", "event": "done", "data": {}}"# + "\n"
        try events.write(to: root.appendingPathComponent("long-stream/reply.jsonl"), atomically: true, encoding: .utf8)
        try """
            description: A reply of 100,000 tokens, one each millisecond.
            extends: assistant-happy
            network:
              routes:
                - extends: reply
                  response:
                    stream:
                      file: reply.jsonl
            """.write(to: root.appendingPathComponent("long-stream/scenario.yaml"), atomically: true, encoding: .utf8)
        try ("""
            description: A presence channel that sends 100,000 messages, one each millisecond.
            extends: assistant-happy
            network:
              routes:
                - extends: presence
                  response:
                    webSocket:
                      onConnect:

            """ + messages.split(separator: "\n").map { "                " + $0 }.joined(separator: "\n") + "\n")
            .write(to: root.appendingPathComponent("long-socket/scenario.yaml"), atomically: true, encoding: .utf8)
        let catalog = ScenarioCatalog.load(from: [shippedScenarios, root], models: shippedModels.names)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return (catalog, root)
    }

    enum Ending: String, CaseIterable { case delete, reset, rewind }

    /// Reads the whole reply (or every presence message), then ends the session each way; the host goes on serving.
    @Test func aSessionThatReadAHundredThousandChunksEndsEachWay() async throws {
        let (catalog, root) = try Self.catalog()
        defer { try? FileManager.default.removeItem(at: root) }
        let host = SessionHost(catalog: catalog, models: shippedModels)
        for scenario in ["long-stream", "long-socket"] {
            // Every ending of a stream; a socket's release is the same path, so deleting it is enough.
            for ending in scenario == "long-stream" ? Ending.allCases : [.delete] {
                let session = try await host.createSession(of: scenario, id: "\(scenario)-\(ending)")
                if scenario == "long-stream" {
                    _ = try await session.perform("send", arguments: ["text": "hi"])
                }
                // 5 s at a time: a move wakes at most 10,000 sleepers.
                for _ in 0...(Self.count / 5_000) {
                    _ = try await session.advanceClock(by: .seconds(5))
                }
                let state = try await session.state().value()
                let journal = await session.requestJournal()
                if scenario == "long-stream" {
                    #expect(state.value(at: "/messages/1/text") == .string(String(repeating: "x", count: Self.count)))
                    #expect(state.value(at: "/messages/1/status") == "complete")
                } else {
                    #expect(journal.entries.first { $0.url.hasPrefix("wss:") }?.stream?.delivered == Self.count)
                }
                switch ending {
                case .delete:
                    try await host.deleteSession(session.id)
                case .reset:
                    try await session.reset()
                    #expect(try await session.state().value().value(at: "/messages") == [])
                    try await host.deleteSession(session.id)
                case .rewind:
                    let rewound = try await session.rewind(to: 0).value()
                    #expect(rewound.value(at: "/messages") == [])
                    try await host.deleteSession(session.id)
                }
            }
        }
        // Still serving: a new session of a shipped scenario acts as usual.
        let after = try await host.createSession(of: "assistant-happy")
        #expect(try await after.perform("send", arguments: ["text": "still here"]).value().value(at: "/isReplying") == true)
    }

    /// A history at its bound of steps, rewound to its start; then a session driven 100,000 steps, past the bound,
    /// reset and deleted.
    @Test func aHistoryAtItsBoundIsLetGoOf() async throws {
        let host = makeHost()
        let full = try await host.createSession(of: "assistant-happy", id: "full-history")
        for _ in 0..<SessionHistory.limit {
            _ = try await full.advanceClock(by: .milliseconds(1))
        }
        #expect(await full.history().steps.count == SessionHistory.limit + 1)
        #expect(try await full.rewind(to: 0).value().value(at: "/assistantOnline") == false)
        try await host.deleteSession(full.id)

        let long = try await host.createSession(of: "assistant-happy", id: "long-history")
        for _ in 0..<Self.count {
            _ = try await long.advanceClock(by: .milliseconds(1))
        }
        #expect(await long.history().overflowed)
        try await long.reset()
        try await host.deleteSession(long.id)
        #expect(await host.openSessions().isEmpty)
    }
}
