import FeedReader
import Foundation
import HTTPTypes
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// Requests sent through a session's network from outside (`POST …/network/requests`, `scenarioctl send`): answered
/// as the Model's would be, journaled as sent from outside, waiting on the clock, replayed by a rewind, bounded.
@Suite struct OutsideRequestTests {
    static let scenario = """
        description: Answers for requests sent from outside.
        model: FeedReader
        clock:
          start: 2026-11-01T09:00:00Z
          mode: frozen
        network:
          routes:
            - name: counter
              request: { method: POST, url: https://api.example.com/count }
              responses:
                - { status: 201, body: first }
                - { status: 202, body: second }
                - { fault: timeout }
            - name: slow
              request: { method: GET, url: https://api.example.com/slow }
              response: { status: 200, body: late, delay: 5s }
            - name: big
              request: { method: GET, url: https://api.example.com/big }
              response: { status: 200, bodyFile: fixtures/big.bin }
        """

    /// A host with the shipped scenarios and `outside`, the scenario above.
    static func host() throws -> SessionHost {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)/outside")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(scenario.utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try Data(repeating: 7, count: 3 << 20).write(to: directory.appendingPathComponent("fixtures/big.bin"))
        let catalog = ScenarioCatalog.load(from: [shippedScenarios, directory.deletingLastPathComponent()], models: shippedModels.names)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return SessionHost(catalog: catalog, models: shippedModels)
    }

    static func request(_ method: HTTPRequest.Method, _ url: String, body: String = "") -> NetworkRequest {
        NetworkRequest(method: method, url: URL(string: url)!, headerFields: [.accept: "text/plain"], body: Data(body.utf8))
    }

    @Test func aRequestIsAnsweredAsTheModelsWouldBeAndJournaledAsSentFromOutside() async throws {
        let session = try await makeHost().createSession(of: "offline-demo")
        let before = try await session.state()
        let sent = try await session.sendFromOutside(Self.request(.get, "https://www.cocoawithlove.com/feed.json"))
        guard case .success(let response)? = sent.result else { Issue.record("no response: \(String(describing: sent.result))"); return }
        #expect(response.head.status == .ok)
        let fixture = try Data(contentsOf: shippedScenarios.appendingPathComponent("first-launch/fixtures/feed.json"))
        #expect(response.body == fixture)
        let sequence = try #require(sent.arrived).sequence
        let entry = try #require(session.journalEntry(sequence))
        #expect(entry.outside == true && entry.route == "feed" && entry.status == 200 && entry.headers == ["Accept: text/plain"])
        // The Model was not told.
        #expect(try await session.state() == before)

        let missed = try await session.sendFromOutside(Self.request(.post, "https://www.cocoawithlove.com/feed.json", body: #"{"b":1,"a":2}"#))
        #expect(missed.result == .failure(.connectionRefused))
        let missedSequence = try #require(missed.arrived).sequence
        let miss = try #require(session.journalEntry(missedSequence))
        #expect(miss.isUnmatched && miss.outside == true && miss.body == #"{"a":2,"b":1}"#)
        #expect(miss.nearMisses?.first?.field == "/method")
        // The Model's own requests are not marked.
        #expect(await session.requestJournal().entries.filter { $0.outside == nil }.allSatisfy { $0.route == "feed" })
    }

    @Test func sequencesAndFaultsAnswerInTurnAndAResetStartsThemAgain() async throws {
        let session = try await Self.host().createSession(of: "outside")
        var answers: [String] = []
        for _ in 0..<4 {
            switch try await session.sendFromOutside(Self.request(.post, "https://api.example.com/count")).result {
            case .success(let response)?: answers.append("\(response.head.status.code) \(String(decoding: response.body, as: UTF8.self))")
            case .failure(let fault)?: answers.append(fault.rawValue)
            case nil: answers.append("pending")
            }
        }
        // After the last of the responses, the last repeats.
        #expect(answers == ["201 first", "202 second", "timeout", "timeout"])
        try await session.reset()
        #expect(try await session.sendFromOutside(Self.request(.post, "https://api.example.com/count")).result.map { try $0.get().head.status.code } == 201)
    }

    @Test func aDelayedAnswerComesWhenTheClockReachesIt() async throws {
        let session = try await Self.host().createSession(of: "outside")
        let sent = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/slow"), keep: true)
        #expect(sent.result == nil)
        let sequence = try #require(sent.arrived).sequence
        #expect(session.journalEntry(sequence)?.pending == true)
        #expect(session.journalEntry(sequence)?.deliversAt == InstantText.parse("2026-11-01T09:00:05Z"))
        let waiting = Task { await sent.answer() }
        try await session.advanceClock(by: .seconds(4))
        #expect(sent.result == nil)
        try await session.advanceClock(by: .seconds(1))
        let answer = await waiting.value
        #expect(try answer.get().body == Data("late".utf8))
        #expect(try await session.outsideRequest(sequence) === sent)
        #expect(session.journalEntry(sequence)?.pending == false)
        // A request not kept is not found later.
        let unkept = try await session.sendFromOutside(Self.request(.post, "https://api.example.com/count"))
        let unkeptSequence = try #require(unkept.arrived).sequence
        await #expect(throws: HostError.self) { try await session.outsideRequest(unkeptSequence) }
    }

    @Test func aResetOrADeleteEndsTheWaitWithCancelled() async throws {
        let host = try Self.host()
        let session = try await host.createSession(of: "outside", id: "reset")
        let first = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/slow"))
        let waiting = Task { await first.answer() }
        try await session.reset()
        #expect(await waiting.value == .failure(.cancelled))
        let second = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/slow"))
        try await host.deleteSession("reset")
        #expect(await second.answer() == .failure(.cancelled))
        // A caller that stops waiting gets cancelled; the request goes on.
        let other = try await host.createSession(of: "outside")
        let third = try await other.sendFromOutside(Self.request(.get, "https://api.example.com/slow"))
        let caller = Task { await third.answer() }
        caller.cancel()
        #expect(await caller.value == .failure(.cancelled))
        try await other.advanceClock(by: .seconds(5))
        #expect(try third.result?.get().body == Data("late".utf8))
    }

    @Test func aRewindSendsTheRequestsAgainAndGivesTheSameJournal() async throws {
        let session = try await Self.host().createSession(of: "outside")
        _ = try await session.sendFromOutside(Self.request(.post, "https://api.example.com/count", body: "one"))
        _ = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/slow"))
        try await session.advanceClock(by: .seconds(5))
        _ = try await session.sendFromOutside(Self.request(.post, "https://api.example.com/count", body: "two"))
        let journal = await session.requestJournal().entries
        let steps = await session.history().steps
        #expect(steps.map(\.number) == [0, 1, 2, 3, 4])
        _ = try await session.rewind(to: 4)
        #expect(await session.requestJournal().entries == journal)
        // Back to before the second count: the next count is answered with the sequence's second response again.
        _ = try await session.rewind(to: 3)
        let again = try await session.sendFromOutside(Self.request(.post, "https://api.example.com/count", body: "two"))
        #expect(try again.result?.get().head.status.code == 202)
        #expect(await session.requestJournal().entries == journal)
    }

    /// Kept answers are bounded in bytes too: 3 MiB each, so the newest five fit in 16 MiB and the sixth oldest goes.
    @Test func keptAnswersAreBoundedInBytes() async throws {
        let session = try await Self.host().createSession(of: "outside")
        var sequences: [Int] = []
        for _ in 0..<10 {
            let sent = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/big"), keep: true)
            #expect(try sent.result?.get().body.count == 3 << 20)
            sequences.append(try #require(sent.arrived).sequence)
        }
        for (index, sequence) in sequences.enumerated() {
            let kept = (try? await session.outsideRequest(sequence)) != nil
            #expect(kept == (index >= 5), "request \(sequence)")
        }
        // The kept answers are held bytes of the session, counted against the daemon's bound, and let go of by a reset.
        #expect(try await session.info().held.sent == 5 * (3 << 20))
        _ = try await session.reset()
        #expect(try await session.info().held.sent == 0)
        // A delayed answer kept is counted once it has come.
        let slow = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/slow"), keep: true)
        #expect(try await session.info().held.sent == 0)
        _ = try await session.advanceClock(by: .seconds(5))
        _ = try await session.outsideRequest(try #require(slow.arrived).sequence)
        #expect(try await session.info().held.sent == 4)
    }

    /// 100,000 requests through one session: every one answered in turn, the kept ones bounded to the newest 64, the
    /// history bounded at its limit, the journal at its capacity.
    @Test func oneHundredThousandRequestsKeepTheirBounds() async throws {
        let session = try await Self.host().createSession(of: "outside")
        let count = 100_000
        var firstKept = 0
        for index in 1...count {
            let sent = try await session.sendFromOutside(Self.request(.get, "https://api.example.com/none/\(index)"), keep: index % 2 == 0)
            #expect(sent.result == .failure(.connectionRefused))
            if index == count - 2 * (Session.keptOutsideRequestLimit - 1) { firstKept = try #require(sent.arrived).sequence }
        }
        _ = try await session.outsideRequest(firstKept)
        await #expect(throws: HostError.self) { try await session.outsideRequest(firstKept - 2) }
        let journal = await session.requestJournal()
        #expect(journal.entries.count == journal.capacity && journal.entries.last?.outside == true)
        #expect(await session.history().overflowed)
    }
}
