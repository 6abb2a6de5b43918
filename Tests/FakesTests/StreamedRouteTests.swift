import Fakes
import Foundation
import HTTPTypes
import Services
import SessionRuntime
import Testing

/// Issue 29: a route that answers with a stream delivers each chunk when the session's clock reaches it.
@Suite struct StreamedRouteTests {
    let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
    let journal = Recorder<NetworkExchange>()

    func network(_ script: StreamScript, delay: Duration = .zero) -> RoutedNetwork {
        let journal = journal
        let head = NetworkResponse(status: 200, headerFields: [.contentType: "text/event-stream"])
        let route = Route(name: "reply", matcher: RequestMatcher(), outcomes: [RouteOutcome(.response(head), delay: delay, stream: script)])
        return RoutedNetwork(routes: [route], clock: clock) { await journal.append($0) }
    }

    let request = NetworkRequest(method: .post, url: URL(string: "https://assistant.example/reply")!)

    func tokens(_ words: [String], every step: Duration) -> [StreamScript.Item] {
        words.enumerated().map { StreamScript.Item(offset: step * ($0.offset + 1), event: SSEEvent(data: $0.element)) }
    }

    /// Reads `fake`'s stream as the session's work, recording each event's data and how the stream ended.
    func consume(_ fake: RoutedNetwork, into seen: Recorder<String>) -> Task<Void, Never> {
        let request = request
        return clock.spawn {
            do {
                let stream = try await fake.stream(request)
                for try await event in stream.events { await seen.append(event.data) }
                await seen.append("<end>")
            } catch let error as TransportError {
                await seen.append("<\(error.rawValue)>")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    /// A session closed while its Model's own task (not one the clock started and cancels) waits on a stream: the
    /// read hears the stream end, so the task finishes and lets go of the session. Found by the soak: each session
    /// deleted mid-reply left its task waiting for good, and the daemon grew 10 MB a minute.
    @Test(.timeLimit(.minutes(1))) func aReadWaitingWhenTheSessionClosesHearsTheEnd() async throws {
        let fake = network(StreamScript(items: tokens(["Hel", "lo"], every: .seconds(1))))
        let seen = Recorder<String>()
        let request = request
        let reader = clock.scope.start {
            do {
                let stream = try await fake.stream(request)
                for try await event in stream.events { await seen.append(event.data) }
                await seen.append("<end>")
            } catch {
                await seen.append("<\(error)>")
            }
        }
        await clock.advance(by: .seconds(1))
        #expect(await seen.values == ["Hel"])
        await clock.shutDown()
        await fake.endOpenStreams()
        await reader.value
        #expect(await seen.values == ["Hel", "<end>"])
        #expect(await fake.openStreams().isEmpty)
        #expect(await journal.values.last?.stream?.state == .cancelled)
    }

    /// The same for a call still waiting out its answer's delay: the session's end cancels the server's delay (not
    /// a timer of the Model's, which stays parked), so the call fails as cancelled and its task finishes.
    @Test(.timeLimit(.minutes(1))) func aCallWaitingOnADelayedAnswerWhenTheSessionClosesIsCancelled() async throws {
        let fake = network(StreamScript(items: tokens(["Hel"], every: .seconds(1))), delay: .seconds(5))
        let seen = Recorder<String>()
        let request = request
        let caller = clock.scope.start {
            do {
                _ = try await fake.stream(request)
                await seen.append("<opened>")
            } catch {
                await seen.append("<\((error as? TransportError)?.rawValue ?? "\(error)")>")
            }
        }
        await clock.settle()
        #expect(await seen.values.isEmpty)
        await clock.shutDown()
        await caller.value
        let values = await seen.values
        #expect(values == ["<cancelled>"], "\(values)")
    }

    @Test func eachEventArrivesWhenTheClockReachesItsOffset() async throws {
        let fake = network(StreamScript(items: tokens(["Hel", "lo", "!"], every: .seconds(1))))
        let seen = Recorder<String>()
        _ = consume(fake, into: seen)
        await clock.settle()
        #expect(await seen.values.isEmpty)
        #expect(await fake.openStreams().first?.stream?.pending == 3)
        await clock.advance(by: .milliseconds(999))
        #expect(await seen.values.isEmpty)
        await clock.advance(by: .milliseconds(1))
        #expect(await seen.values == ["Hel"])
        await clock.advance(by: .seconds(1))
        #expect(await seen.values == ["Hel", "lo"])
        await clock.advance(by: .seconds(5))
        #expect(await seen.values == ["Hel", "lo", "!", "<end>"])
        #expect(await fake.openStreams().isEmpty)

        let last = try #require(await journal.values.last?.stream)
        #expect(last.state == .closed)
        #expect(last.chunks.map(\.text) == ["data: Hel\n\n", "data: lo\n\n", "data: !\n\n"])
        #expect(last.chunks.map { $0.time.timeIntervalSince1970 } == [1_800_000_001, 1_800_000_002, 1_800_000_003])
    }

    @Test func aDroppedStreamThrowsAfterItsLastEvent() async throws {
        let fake = network(StreamScript(items: tokens(["a", "b"], every: .milliseconds(100)), end: .drop(.connectionReset),
                                        endOffset: .milliseconds(500)))
        let seen = Recorder<String>()
        _ = consume(fake, into: seen)
        await clock.advance(by: .milliseconds(499))
        #expect(await seen.values == ["a", "b"])
        await clock.advance(by: .milliseconds(1))
        #expect(await seen.values == ["a", "b", "<connectionReset>"])
        let last = try #require(await journal.values.last?.stream)
        #expect(last.state == .dropped)
        #expect(last.fault == "connectionReset")
    }

    @Test func aTestPushesIntoAndClosesAStalledStream() async throws {
        let fake = network(StreamScript(items: tokens(["first"], every: .zero), end: .stall))
        let seen = Recorder<String>()
        _ = consume(fake, into: seen)
        await clock.settle()
        #expect(await seen.values == ["first"])
        let id = try #require(await fake.openStreams().first?.sequence)
        try await fake.push(Data(SSEEvent(event: "note", data: "pushed").text.utf8), into: id)
        await clock.settle()
        #expect(await seen.values == ["first", "pushed"])
        try await fake.close(id, with: .close)
        await clock.settle()
        #expect(await seen.values == ["first", "pushed", "<end>"])
        await #expect(throws: RoutedNetwork.StreamSteeringError.notOpen) { try await fake.close(id, with: .close) }
        let last = try #require(await journal.values.last?.stream)
        #expect(last.chunks.map(\.pushed) == [nil, true])
    }

    @Test func cancellingTheReaderClosesTheStream() async throws {
        let fake = network(StreamScript(items: tokens(["a", "b"], every: .seconds(10))))
        let seen = Recorder<String>()
        let task = consume(fake, into: seen)
        await clock.settle()
        task.cancel()
        await task.value
        #expect(await seen.values == ["<cancelled>"])
        #expect(await fake.openStreams().isEmpty)
        #expect(await journal.values.last?.stream?.state == .cancelled)
    }

    @Test func aReaderThatLeavesItsLoopEarlyClosesTheStream() async throws {
        let fake = network(StreamScript(items: tokens(["a", "b", "c"], every: .seconds(1))))
        let request = request
        clock.spawn {
            guard let stream = try? await fake.stream(request) else { return }
            do { for try await _ in stream.events { break } } catch {}
        }
        await clock.advance(by: .seconds(1))
        await clock.settle()
        #expect(await fake.openStreams().isEmpty)
        let last = try #require(await journal.values.last?.stream)
        #expect(last.state == .cancelled)
        #expect(last.delivered == 1)
        #expect(last.pending == 2)
    }

    /// A Model that stops at a reply's last chunk (its `done` event) lets go at the instant the script ends: the
    /// server had closed the stream, and the journal says so (the dashboard read a completed reply as cancelled).
    @Test func aReaderThatStopsAtTheLastChunkLeavesTheStreamClosedByItsServer() async throws {
        let fake = network(StreamScript(items: tokens(["a", "b", "done"], every: .seconds(1))))
        let request = request
        clock.spawn {
            guard let stream = try? await fake.stream(request) else { return }
            do { for try await event in stream.events where event.data == "done" { break } } catch {}
        }
        await clock.advance(by: .seconds(3))
        await clock.settle()
        #expect(await fake.openStreams().isEmpty)
        let last = try #require(await journal.values.last?.stream)
        #expect(last.state == .closed)
        #expect(last.delivered == 3)
    }

    @Test func aReaderThatNeverReadsHoldsTheStreamBack() async throws {
        let fake = network(StreamScript(items: tokens(Array(repeating: "x", count: 10_000), every: .zero)))
        let request = request
        let held = Recorder<NetworkStream>()
        clock.spawn { if let stream = try? await fake.stream(request) { await held.append(stream) } }
        await clock.advance(by: .seconds(60))
        // Nothing was read, so nothing was produced: all of it is still pending, none of it buffered.
        let open = try #require(await fake.openStreams().first?.stream)
        #expect(open.delivered == 0)
        #expect(open.pending == 10_000)
    }

    @Test func sendGetsTheWholeBodyOnceTheStreamHasEnded() async throws {
        let fake = network(StreamScript(items: tokens(["a", "b"], every: .seconds(1))), delay: .milliseconds(300))
        let body = Recorder<String>()
        let request = request
        clock.spawn {
            let response = try? await fake.send(request)
            await body.append(response.map { String(decoding: $0.body, as: UTF8.self) } ?? "<failed>")
        }
        await clock.advance(by: .milliseconds(2_299))
        #expect(await body.values.isEmpty)
        await clock.advance(by: .milliseconds(1))
        #expect(await body.values == ["data: a\n\ndata: b\n\n"])
    }

    @Test func goingOfflineBreaksOpenStreams() async throws {
        let fake = network(StreamScript(items: tokens(["a", "b"], every: .seconds(1))))
        let seen = Recorder<String>()
        _ = consume(fake, into: seen)
        await clock.advance(by: .seconds(1))
        await fake.setConditions(NetworkConditions(offline: true))
        await clock.settle()
        #expect(await seen.values == ["a", "<offline>"])
    }

    /// An outcome that carries a script but answers with a fault (a team's own route, or a patch that made a
    /// streamed route fail) fails the stream and the handshake with that fault; found by explore, which crashed.
    @Test func aFaultWithAScriptFailsWithTheFault() async throws {
        let outcome = RouteOutcome(.fault(.timeout), stream: StreamScript(items: tokens(["a"], every: .seconds(1))),
                                   webSocket: WebSocketScript(onConnect: [.init(offset: .zero, message: .text("hi"))]))
        let fake = RoutedNetwork(routes: [Route(name: "failing", matcher: RequestMatcher(), outcomes: [outcome])], clock: clock) { _ in }
        let request = request
        let seen = Recorder<String>()
        clock.spawn {
            do { _ = try await fake.stream(request); await seen.append("open") } catch { await seen.append("stream \((error as? TransportError)?.rawValue ?? "\(error)")") }
            do { _ = try await fake.webSocket(request); await seen.append("open") } catch { await seen.append("socket \((error as? TransportError)?.rawValue ?? "\(error)")") }
        }
        await clock.settle()
        #expect(await seen.values == ["stream timeout", "socket timeout"])
    }
}

@Suite struct SSEParserTests {
    func parse(_ chunks: [String]) -> [SSEEvent] {
        var parser = SSEParser()
        return chunks.flatMap { parser.consume(Data($0.utf8)) }
    }

    @Test func fieldsCommentsAndMultilineData() {
        let events = parse([": a comment\nevent: token\nid: 7\nretry: 1500\ndata: one\ndata:two\n\ndata: three\n\n"])
        #expect(events == [SSEEvent(event: "token", id: "7", data: "one\ntwo", retry: 1500),
                           SSEEvent(id: "7", data: "three")])
    }

    @Test func lineEndingsMaySplitAcrossChunks() {
        #expect(parse(["\u{FEFF}data: a\r", "\ndata: b\r", "\r", "data: c\r\n", "\r\n"]) ==
                [SSEEvent(data: "a\nb"), SSEEvent(data: "c")])
    }

    @Test func anEventWithoutItsBlankLineIsDroppedAtTheEnd() {
        var parser = SSEParser()
        #expect(parser.consume(Data("data: whole\n\ndata: cut off".utf8)) == [SSEEvent(data: "whole")])
        parser.finish()
        #expect(parser.consume(Data("\n\n".utf8)).isEmpty)
    }

    @Test func aBadRetryAndABlockWithoutDataDispatchNothing() {
        #expect(parse(["retry: soon\nevent: x\n\ndata: y\nretry: 10x\n\n"]) == [SSEEvent(data: "y")])
    }

    @Test func anEventRoundTripsThroughItsText() {
        let event = SSEEvent(event: "done", id: "3", data: "line one\nline two", retry: 20)
        #expect(parse([event.text]) == [event])
    }

    /// The wire form splits data at line feeds only; a carriage return stays in its line, with a line feed after it
    /// too (a "\r\n" is one Character, never split), and the fields come in a fixed order.
    @Test(arguments: [
        (SSEEvent(data: ""), "data: \n\n"),
        (SSEEvent(data: "one"), "data: one\n\n"),
        (SSEEvent(data: "a\nb"), "data: a\ndata: b\n\n"),
        (SSEEvent(data: "\n"), "data: \ndata: \n\n"),
        (SSEEvent(data: "a\r\nb\rc\n"), "data: a\r\nb\rc\ndata: \n\n"),
        (SSEEvent(event: "t", id: "7", data: "é😀", retry: 0), "event: t\nid: 7\nretry: 0\ndata: é😀\n\n"),
    ])
    func anEventsWireForm(_ event: SSEEvent, _ text: String) {
        #expect(event.text == text)
        #expect(event.bytes == Data(text.utf8))
    }
}

/// Issue 29: a WebSocket route is a scripted conversation on the session's clock.
@Suite struct WebSocketRouteTests {
    let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
    let journal = Recorder<NetworkExchange>()
    let request = NetworkRequest(method: .get, url: URL(string: "wss://assistant.example/v1/presence")!)

    func network(_ script: WebSocketScript) -> RoutedNetwork {
        let journal = journal
        let route = Route(name: "presence", matcher: RequestMatcher(),
                          outcomes: [RouteOutcome(.response(NetworkResponse(status: 101)), webSocket: script)])
        return RoutedNetwork(routes: [route], clock: clock) { await journal.append($0) }
    }

    static let script = WebSocketScript(
        onConnect: [.init(offset: .milliseconds(100), message: .text(#"{"type":"online"}"#))],
        replies: [
            .init(when: RequestMatcher(bodyFields: ["/type": "ping"]), send: [.init(offset: .zero, message: .text("pong"))]),
            .init(when: RequestMatcher(bodyText: .contains("typing")),
                  send: [.init(offset: .seconds(1), message: .text("typing")), .init(offset: .seconds(3), message: .text("idle"))]),
        ],
        close: .init(offset: .seconds(10), frame: WebSocketClose(code: 1011, reason: "overloaded")))

    @Test func messagesArriveAtTheirOffsetsRepliesAreChosenByMatchersAndTheCloseCarriesItsCode() async throws {
        let fake = network(Self.script)
        let seen = Recorder<String>()
        let request = request
        let socket = Recorder<WebSocketConnection>()
        clock.spawn {
            guard let connection = try? await fake.webSocket(request) else { return await seen.append("<refused>") }
            await socket.append(connection)
            do {
                for try await message in connection.messages {
                    if case .text(let text) = message { await seen.append(text) }
                }
                let close = await connection.serverClose()
                await seen.append("<closed \(close?.code ?? 0) \(close?.reason ?? "")>")
            } catch {
                await seen.append("<\((error as? TransportError)?.rawValue ?? "\(error)")>")
            }
        }
        await clock.advance(by: .milliseconds(100))
        #expect(await seen.values == [#"{"type":"online"}"#])
        let connection = try #require(await socket.values.first)
        let send = { @Sendable (text: String) in await clock.spawnAndSettle { try? await connection.send(.text(text)) } }
        await send(#"{"type":"ping"}"#)
        #expect(await seen.values.last == "pong")
        await send("user is typing")
        await clock.advance(by: .seconds(1))
        #expect(await seen.values.last == "typing")
        await clock.advance(by: .seconds(2))
        #expect(await seen.values.last == "idle")
        await send("no reply matches this")
        await clock.advance(by: .seconds(10))
        #expect(await seen.values == [#"{"type":"online"}"#, "pong", "typing", "idle", "<closed 1011 overloaded>"])

        let transcript = try #require(await journal.values.last?.stream)
        #expect(transcript.kind == .webSocket)
        #expect(transcript.state == .closed)
        #expect(transcript.close == WebSocketClose(code: 1011, reason: "overloaded"))
        #expect(transcript.chunks.map { ($0.sent == true ? "> " : "< ") + $0.text } == [
            #"< {"type":"online"}"#, #"> {"type":"ping"}"#, "< pong", "> user is typing", "< typing", "< idle", "> no reply matches this",
        ])
        await #expect(throws: TransportError.connectionReset) { try await connection.send(.text("too late")) }
    }

    @Test func aTestPushesAMessageAndClosesWithItsOwnFrame() async throws {
        let fake = network(WebSocketScript())
        let seen = Recorder<String>()
        let request = request
        clock.spawn {
            guard let connection = try? await fake.webSocket(request) else { return }
            do {
                for try await message in connection.messages { if case .text(let text) = message { await seen.append(text) } }
                await seen.append("<closed \(await connection.serverClose()?.code ?? 0)>")
            } catch {}
        }
        await clock.settle()
        let id = try #require(await fake.openStreams().first?.sequence)
        try await fake.push(Data("hello from the test".utf8), into: id)
        await clock.settle()
        try await fake.close(id, with: .close, frame: WebSocketClose(code: 4000, reason: "bye"))
        await clock.settle()
        #expect(await seen.values == ["hello from the test", "<closed 4000>"])
    }

    @Test func aRouteWithoutAConversationRefusesTheHandshake() async throws {
        let journal = journal
        let fake = RoutedNetwork(routes: [Route(name: "plain", matcher: RequestMatcher(), outcomes: [RouteOutcome(.response(NetworkResponse(status: 200)))])],
                                 clock: clock) { await journal.append($0) }
        let request = request
        let outcome = Recorder<String>()
        clock.spawn {
            do { _ = try await fake.webSocket(request); await outcome.append("open") } catch { await outcome.append((error as? TransportError)?.rawValue ?? "\(error)") }
        }
        await clock.settle()
        #expect(await outcome.values == ["connectionRefused"])
        #expect(await journal.values.first?.route == "plain")
    }
}

/// A live WebSocket relayed by the fake journals the Model's message before the server's answer to it, even when
/// the answer arrives before the send returns (as a fast server's can).
@Suite struct LiveWebSocketRelayTests {
    /// A server whose answer to a message is received, and journaled, before its send returns.
    actor AnsweringFirst: WebSocketChannel {
        private var inbox: [WebSocketMessage] = []
        private var reader: CheckedContinuation<WebSocketMessage?, Never>?
        private var answered: CheckedContinuation<Void, Never>?
        let journal: Recorder<NetworkExchange>

        init(journal: Recorder<NetworkExchange>) { self.journal = journal }

        func receive() async throws(TransportError) -> WebSocketMessage? {
            if !inbox.isEmpty { return inbox.removeFirst() }
            return await withCheckedContinuation { reader = $0 }
        }

        func send(_ message: WebSocketMessage) async throws(TransportError) {
            guard case .text(let text) = message else { return }
            let answer = WebSocketMessage.text("re: \(text)")
            if let reader { self.reader = nil; reader.resume(returning: answer) } else { inbox.append(answer) }
            // Returns only once the relay has journaled the answer (bounded, so a relay that never does fails the
            // test's expectation rather than hanging it).
            for _ in 0..<100_000 where await !journal.values.contains(where: { $0.stream?.chunks.contains { $0.text == "re: \(text)" } == true }) {
                await Task.yield()
            }
        }

        func close(_ frame: WebSocketClose) async {}
        func serverClose() async -> WebSocketClose? { nil }
        nonisolated func consumerLeft() {}
    }

    struct Upstream: NetworkService {
        let channel: AnsweringFirst
        func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse { throw .connectionRefused }
        func webSocket(_ request: NetworkRequest) async throws(TransportError) -> WebSocketConnection { WebSocketConnection(channel: channel) }
    }

    @Test func theModelsMessageIsJournaledBeforeTheAnswerToIt() async throws {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
        let journal = Recorder<NetworkExchange>()
        let fake = RoutedNetwork(routes: [], clock: clock, upstream: Upstream(channel: AnsweringFirst(journal: journal)),
                                 unmatchedGoesUpstream: true) { await journal.append($0) }
        let request = NetworkRequest(method: .get, url: URL(string: "wss://assistant.example/v1/presence")!)
        await clock.spawnAndSettle {
            guard let connection = try? await fake.webSocket(request) else { return }
            let reading = Task { for try await _ in connection.messages {} }
            try? await connection.send(.text("hello"))
            reading.cancel()
        }
        let chunks = try #require(await journal.values.last?.stream?.chunks)
        #expect(chunks.prefix(2).map { "\($0.sent == true ? "sent" : "received") \($0.text)" } == ["sent hello", "received re: hello"])
    }
}
