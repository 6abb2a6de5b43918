import Fakes
import Foundation
import HTTPTypes
@testable import ScenarioFormat
import Services
import SessionRuntime
import Testing

/// Issue 29, item 2: a route's response may be a stream, written inline or read from a fixture; every problem is
/// placed at its file and line.
@Suite struct StreamRouteTests {
    func catalog(_ yaml: String, fixtures: [String: String] = [:]) throws -> (ScenarioCatalog, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-stream-\(UUID())")
        let directory = root.appendingPathComponent("chat")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
        for (name, text) in fixtures { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return (ScenarioCatalog.load(from: [root], models: ["FeedReader"]), directory)
    }

    func scenario(stream: String) -> String {
        """
        description: A streamed reply.
        model: FeedReader
        network:
          routes:
            - name: reply
              request:
                method: POST
                url: https://assistant.example/reply
              response:
                delay: 100ms
        \(stream.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
        """
    }

    func script(_ catalog: ScenarioCatalog) throws -> (StreamScript, RouteOutcome) {
        let outcome = try #require(catalog.scenarios["chat"]?.routes.first?.outcomes.first, "\(catalog.problems)")
        return (try #require(outcome.stream), outcome)
    }

    @Test func inlineEventsKeepTheirOffsetsFieldsAndEnd() throws {
        let (catalog, _) = try catalog(scenario(stream: """
        stream:
          events:
            - at: +200ms
              data: Hel
            - data: lo
              event: token
              id: 2
            - at: 1s
              data: {done: true}
            - at: 1.5s
              text: "data: cut off"
          end: drop
          fault: timeout
          endAt: 2s
        """))
        let (script, outcome) = try script(catalog)
        #expect(script.items.map(\.offset) == [.milliseconds(200), .milliseconds(200), .seconds(1), .milliseconds(1_500)])
        #expect(script.items.map { String(decoding: $0.bytes, as: UTF8.self) } ==
                ["data: Hel\n\n", "event: token\nid: 2\ndata: lo\n\n", "data: {\"done\":true}\n\n", "data: cut off"])
        #expect(script.end == .drop(.timeout))
        #expect(script.endOffset == .seconds(2))
        #expect(outcome.delay == .milliseconds(100))
        guard case .response(let response) = outcome.result else { Issue.record("not a response"); return }
        #expect(response.head.headerFields[.contentType] == "text/event-stream")
    }

    @Test func aJSONLinesFixtureAndAnSSETranscriptReadAsTheSameStream() throws {
        let lines = """
        {"at": "+200ms", "data": "Hel"}
        {"at": "+400ms", "event": "token", "data": "lo"}

        """
        let transcript = """
        : at +200ms
        data: Hel

        : at +400ms
        event: token
        data: lo

        """
        let (fromLines, _) = try catalog(scenario(stream: "stream:\n  file: reply.jsonl"), fixtures: ["reply.jsonl": lines])
        let (fromTranscript, _) = try catalog(scenario(stream: "stream:\n  file: reply.sse\n  end: stall"), fixtures: ["reply.sse": transcript])
        let a = try script(fromLines).0, b = try script(fromTranscript).0
        #expect(a.items == b.items)
        #expect(a.items.count == 2)
        #expect(b.end == .stall)
    }

    /// A fixture's plain events are read as JSON without YAML (a big fixture loads at I/O speed); each is the same
    /// item, byte for byte, as the same event written in the scenario, which YAML reads: numbers written every way,
    /// escapes, nesting, key order, event names, ids and retries.
    @Test func aFixturesPlainEventsAreTheItemsTheSameEventsWrittenInlineAre() throws {
        let events = [
            #"{"at": "+1ms", "event": "token", "data": {"text": "Hel", "n": 1}}"#,
            #"{"at": "2ms", "data": {"b": [1, 1.0, 1.5, -0.0, 1e3, 2E-2, 12345678901234567, true, false, null], "a": {"z": "é\u00e9\n\"\/"}}}"#,
            #"{"data": "plain text, no at", "id": "7", "retry": 3000}"#,
            #"{"at": "+1.5s", "event": "done", "data": []}"#,
            #"{"at":"+2s","data":"{not json}"}"#,
            #"{"at": "+3s", "data": {"deep": {"deeper": [{"x": 0.1}, {"y": 100000000000000000000}]}}}"#,
            // As Python's json.dumps writes (", " and ": ", characters outside ASCII as \u escapes), and compact.
            #"{"data": {"text": "caf\u00e9 \u2603", "n": -42, "ok": true, "none": null}, "event": "tok\u0065n", "at": "+4s"}"#,
            #"{"at":"+5s","data":{"a":[],"b":{},"c":"tab\there\u0001"}}"#,
            #"  {  "at" : "+6s" ,"data" : { "é": 1, "Ａ": 2, "z": 3, "Z": 4, "_": 5 } }  "#,
        ]
        let (fromFile, _) = try catalog(scenario(stream: "stream:\n  file: reply.jsonl"), fixtures: ["reply.jsonl": events.joined(separator: "\n") + "\n"])
        let inline = "stream:\n  events:\n" + events.map { "    - \($0)" }.joined(separator: "\n")
        let (fromYAML, _) = try catalog(scenario(stream: inline))
        let read = try script(fromFile).0, written = try script(fromYAML).0
        #expect(read.items.count == events.count)
        for (a, b) in zip(read.items, written.items) {
            #expect(a == b, "\(String(decoding: a.bytes, as: UTF8.self)) against \(String(decoding: b.bytes, as: UTF8.self))")
        }
        // Lines whose numbers YAML reads its own way (1.0, -0.0, 1e3, a 21-digit integer) are left to it; the rest
        // are read without it.
        for (index, line) in events.enumerated() {
            let plain = Array(line.utf8).withUnsafeBufferPointer { ScenarioFileParser.plainEvent($0) }
            #expect((plain == nil) == [1, 5].contains(index), "line \(index)")
        }
    }

    @Test func aBadLineInAFixtureIsPlacedAtThatLine() throws {
        let lines = """
        {"at": "+200ms", "data": "Hel"}
        {"at": "+100ms", "data": "lo"}
        not json
        {"at": "+1s", "colour": "red", "data": "x"}
        """
        let (catalog, directory) = try catalog(scenario(stream: "stream:\n  file: reply.jsonl"), fixtures: ["reply.jsonl": lines])
        let problems = try #require(catalog.problems["chat"])
        let fixture = directory.appendingPathComponent("reply.jsonl").path
        #expect(problems.map(\.file) == [fixture, fixture, fixture])
        #expect(problems.map(\.line) == [2, 3, 4])
        #expect(problems[0].message == "event.at is 100ms, before the previous event's 200ms; list events in the order they arrive.")
        #expect(problems[1].message.hasPrefix("line 3 is not a JSON object"))
        #expect(problems[2].message.contains("'colour'"))
    }

    @Test func aTranscriptWhoseLastEventIsNeverDispatchedIsRefused() throws {
        let (catalog, directory) = try catalog(scenario(stream: "stream:\n  file: reply.sse"),
                                               fixtures: ["reply.sse": ": at 1s\ndata: one\n\ndata: two"])
        let problem = try #require(catalog.problems["chat"]?.first)
        #expect(problem.file == directory.appendingPathComponent("reply.sse").path)
        #expect(problem.line == 4)
        #expect(problem.message.hasPrefix("the last event has no blank line after it"))
    }

    @Test func aStreamFixtureMustBeJSONLinesOrATranscript() throws {
        let (catalog, _) = try catalog(scenario(stream: "stream:\n  file: reply.txt"), fixtures: ["reply.txt": "data: x\n\n"])
        let problem = try #require(catalog.problems["chat"]?.first)
        #expect(problem.message == "network.routes[0].response.stream.file is 'reply.txt'; a stream's fixture is a .jsonl file (an event per line) or an .sse transcript.")
        #expect(problem.line == 12)
    }

    /// `template: true` fills a stream's chunks per request as it fills a body: JSON data escaped as in a JSON
    /// string, text data continued on `data:` lines, a raw chunk as it is, a transcript's event too.
    /// The same events written in the scenario and read from a fixture (whose plain events skip YAML).
    static let templatedStreams: [(stream: String, fixtures: [String: String])] = [
        ("""
        template: true
        stream:
          events:
            - data: {text: "Hello {{request.body.name}}"}
            - at: +1s
              data: "to {{request.body.name}}"
            - text: "raw {{request.query.q}}"
            - data: as written
        """, [:]),
        ("template: true\nstream:\n  file: reply.jsonl", ["reply.jsonl": """
        {"data": {"text": "Hello {{request.body.name}}"}}
        {"at": "+1s", "data": "to {{request.body.name}}"}
        {"text": "raw {{request.query.q}}"}
        {"data": "as written"}
        """]),
    ]

    @Test(arguments: templatedStreams)
    func templatedChunksAreFilledPerRequestEachEscapedForWhereTheValueGoes(_ stream: String, _ fixtures: [String: String]) async throws {
        let (catalog, _) = try catalog(scenario(stream: stream), fixtures: fixtures)
        let (_, outcome) = try script(catalog)
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0), mode: .frozen)
        let fake = RoutedNetwork(routes: [Route(name: "reply", matcher: RequestMatcher(), outcomes: [outcome])], clock: clock) { _ in }
        let request = NetworkRequest(method: .post, url: URL(string: "https://assistant.example/reply?q=a%20b")!,
                                     body: Data(#"{"name": "A \"B\"\nC"}"#.utf8))
        let answer = Answer()
        clock.spawn { await answer.set(try? await fake.send(request)) }
        await clock.advance(by: .seconds(2))
        let response = try #require(await answer.response)
        #expect(String(decoding: response.body, as: UTF8.self) ==
                "data: {\"text\":\"Hello A \\\"B\\\"\\nC\"}\n\n" + "data: to A \"B\"\ndata: C\n\n" + "raw a b" + "data: as written\n\n")
    }

    @Test func aTemplateInAChunkThatReadsWhatNoRequestHasIsPlacedAtItsEvent() throws {
        let (catalog, _) = try catalog(scenario(stream: """
        template: true
        stream:
          events:
            - data: fine
            - data: "{{response.text}}"
        """))
        let problem = try #require(catalog.problems["chat"]?.first)
        #expect(problem.line == 15)
        #expect(problem.message.hasPrefix("network.routes[0].response.stream chunk 2 reads 'response.text', which no request has."))
    }

    actor Answer {
        var response: NetworkResponse?
        func set(_ response: NetworkResponse?) { self.response = response }
    }
}
