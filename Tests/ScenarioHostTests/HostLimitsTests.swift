import ControlAPI
import ScenarioHost
import Testing

/// Past a limit the host refuses with a code that names it, refuses nothing below it, and frees a place when a
/// session is deleted or a stream ends.
@Suite struct HostLimitsTests {
    @Test func sessionsPastTheLimitAreRefusedUntilOneIsDeleted() async throws {
        let host = makeHost(limits: HostLimits(sessions: 2, subscribersPerSession: 1, subscribers: 1))
        try await host.createSession(of: "offline", id: "a")
        try await host.createSession(of: "offline-demo", id: "b")

        let error = await #expect(throws: HostError.self) { try await host.createSession(of: "offline", id: "c") }
        #expect(error?.code == .tooManySessions)
        #expect(error?.message.contains("2 sessions are open, the limit") == true)
        #expect(error?.message.contains("--max-sessions") == true)
        #expect(await host.openSessions().map(\.id) == ["a", "b"])

        try await host.deleteSession("a")
        try await host.createSession(of: "offline", id: "c")
        #expect(await host.openSessions().map(\.id) == ["b", "c"])
    }

    @Test func eventStreamsAreLimitedPerSessionAndInAll() async throws {
        let host = makeHost(limits: HostLimits(sessions: 10, subscribersPerSession: 2, subscribers: 3))
        let a = try await host.createSession(of: "offline", id: "a")
        let b = try await host.createSession(of: "offline", id: "b")
        var open = [try await a.eventStream(), try await a.eventStream()]

        let perSession = await #expect(throws: HostError.self) { _ = try await a.eventStream() }
        #expect(perSession?.code == .tooManySubscribers)
        #expect(perSession?.message.contains("session 'a' has 2 event streams open") == true)

        open.append(try await b.eventStream())
        let inAll = await #expect(throws: HostError.self) { _ = try await b.eventStream() }
        #expect(inAll?.code == .tooManySubscribers)
        #expect(inAll?.message.contains("3 event streams are open across all sessions") == true)

        // A stream let go gives its place back, to its session and to the total.
        open.removeFirst()
        open.append(try await a.eventStream())
        // Deleting a session ends its streams and frees their places for other sessions.
        try await host.deleteSession("a")
        open.append(try await b.eventStream())
        #expect(open.count == 4)
    }
}
