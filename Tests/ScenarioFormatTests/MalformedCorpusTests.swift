import Foundation
import ScenarioFormat
import Testing

/// The malformed-scenario corpus: each directory under `Malformed/` holds a scenario `bad` (and any scenarios it
/// extends) that is wrong in one way; each must be refused with this exact message at this exact place.
@Suite struct MalformedCorpusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var directory: String
        var line: Int?
        var column: Int?
        var message: String
        var problems = 1

        init(_ directory: String, _ line: Int?, _ column: Int?, _ message: String, problems: Int = 1) {
            self.directory = directory
            self.line = line
            self.column = column
            self.message = message
            self.problems = problems
        }

        var testDescription: String { directory }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")

    static let cases: [Case] = [
        Case("after-last-without-responses", 11, 18, "network.routes[0].afterLast applies only to 'responses'."),
        Case("bad-network-mode", 3, 10, "network must be one of fake, live, record, got 'lve'. Did you mean 'live'?"),
        Case("bad-store", 4, 10, "keyValue.store must be one of memory, durable, got 'disk'."),
        Case("after-unknown-route", 12, 18, "route 'rating' answers after route 'post-ratting', but the scenario has no route of that name. Did you mean 'post-rating'?"),
        Case("after-on-first-response", 10, 11, "network.routes[0].responses[0] has 'after', but the first response answers before anything has happened; remove its 'after'."),
        Case("forward-without-live", 5, 5, "network.forward applies to live requests, but this scenario sends none (mode fake, no route with live: true); remove it, mark a route live: true, or use mode live."),
        Case("forward-not-an-origin", 6, 5, "network.forward target 'http://127.0.0.1:8080/feeds' must be an origin: http, https, ws or wss, a host, an optional port, no path (e.g. http://127.0.0.1:8080)."),
        Case("inherit-seed-without-extends", 4, 16, "keyValue.inheritSeed applies to a scenario that extends another; this one extends none, so remove it."),
        Case("live-route-with-response", 5, 7, "network.routes[0] is live, so the real server answers; remove 'response'."),
        Case("record-with-routes", 4, 9, "network mode 'record' sends every request to the live network, but this scenario has routes (feed); use mode 'live' to answer some requests from routes."),
        Case("system-clock-with-start", 5, 10, "clock.start does not apply to the system clock, which reads the real time; remove it."),
        Case("unmatched-in-live-mode", 5, 14, "network.unmatched applies to mode 'fake' only; in mode 'live' unmatched requests go to the live network."),
        Case("bad-clock-mode", 4, 9, "clock.mode must be one of frozen, running, system, got 'frozn'. Did you mean 'frozen'?"),
        Case("bad-clock-start", 4, 10, "clock.start must be an ISO 8601 instant with a time zone, such as 2026-11-01T09:00:00Z, got 'next tuesday'."),
        Case("bad-duration", 10, 16, "network.routes[0].response.delay must be a duration such as 250ms, 2s, 15m or 1h30m, got '2 seconds'."),
        Case("bad-header-regex", 8, 35, "network.routes[0].request.headers.Authorization.regex is not a valid regular expression: expected ')'"),
        Case("bad-header-name", 8, 11, "network.routes[0].request.headers has 'Bad Header', which is not a valid HTTP header name."),
        Case("bad-method", 7, 17, "network.routes[0].request.method must be an HTTP method such as GET or POST, got 'GET/POST'."),
        Case("bad-template", 10, 19, "network.routes[0].response.headers.X-Item is not a valid template: a section is closed with another name than it was opened with (template line 1, column 30)."),
        Case("bad-url-pattern", 7, 21, "network.routes[0].request.urlPattern is not a valid regular expression: expected ')'"),
        Case("body-field-not-a-pointer", 8, 11, "network.routes[0].request.bodyFields has 'user.age', which is not a JSON pointer; write the field's path from the body's top, such as /user/age."),
        Case("body-text-bad-regex", 7, 28, "network.routes[0].request.bodyText.regex is not a valid regular expression: expected ')'"),
        Case("body-and-body-file", 10, 9, "network.routes[0].response has both 'body' and 'bodyFile'; keep one."),
        Case("stream-and-body", 10, 9, "network.routes[0].response has a 'stream' and 'body'; a streamed body is its chunks, so keep one."),
        Case("stream-bad-offset", 12, 19, "network.routes[0].response.stream.events[0].at must be an offset from the stream's opening such as '+200ms', '1.5s' or '2m', got 'soon'."),
        Case("stream-event-without-data", 12, 15, "network.routes[0].response.stream.events[0] needs 'data' (an event without data is never dispatched) or 'text' (a chunk sent as written)."),
        Case("stream-fault-without-drop", 13, 18, "network.routes[0].response.stream has a 'fault' but ends with 'close'; a fault is what a dropped stream throws, so add 'end: drop' or remove 'fault'."),
        Case("stream-out-of-order", 14, 19, "network.routes[0].response.stream.events[1].at is 200ms, before the previous event's 400ms; list events in the order they arrive."),
        Case("stream-text-and-data", 12, 15, "network.routes[0].response.stream.events[0] has 'text' and 'data'; 'text' is a chunk sent exactly as written, so keep either it or the event's fields."),
        Case("description-not-text", 1, 14, "description must be a string, got the number 42. Quote it if it should be text."),
        Case("duplicate-key", 2, 1, "duplicate key 'description' in one mapping; keep one."),
        Case("duplicate-route-names", 11, 7, "network.routes[1] reuses the route name 'feed' (first used at line 5); route names must be unique."),
        Case("empty-file", nil, nil, "the file is empty; a scenario needs at least 'description' and 'model'."),
        Case("empty-responses", 9, 18, "network.routes[0].responses is empty; list at least one response."),
        Case("extends-cycle", 2, 10, "extends 'middle' makes a cycle: bad → middle → bad. Remove one 'extends'."),
        Case("extends-itself", 2, 10, "extends 'bad' makes a cycle: bad → bad. Remove one 'extends'."),
        Case("extends-missing-parent", 2, 10, "extends 'first-launh', which is in none of the directories read (ROOT). Did you mean 'first-launch'? If it is in another directory, name that directory too, before this one: `scenarioctl validate DIRECTORY ROOT` (a daemon: `--scenarios DIRECTORY --scenarios ROOT`)."),
        Case("extends-other-model", 3, 8, "model 'Ratings' differs from 'FeedReader' of the extended scenario 'base'; a scenario extends one of the same Model."),
        Case("fault-with-status", 10, 9, "network.routes[0].response has a 'fault' and 'status'; a fault sends no response, so keep only 'fault' and 'delay'."),
        Case("fixture-absolute-path", 10, 19, "network.routes[0].response.bodyFile: fixture path '/etc/hostname' is absolute; write it relative to the scenario directory."),
        Case("fixture-escapes-by-dotdot", 10, 19, "network.routes[0].response.bodyFile: fixture path '../other/feed.json' leaves the scenario directory through '..'; keep fixtures inside it."),
        Case("fixture-escapes-by-symlink", 10, 19, "network.routes[0].response.bodyFile: fixture 'fixtures/feed.json' is a symlink to '/etc/hostname', outside the scenario directory; copy the file in instead."),
        Case("match-two-ways", 8, 17, "network.routes[0].request.query.page must name one way to match (regex, contains, present, absent, lt, lte, gt, gte), got 2."),
        Case("missing-description", 1, 1, "the scenario is missing the required key 'description'."),
        Case("missing-fixture", 10, 19, "network.routes[0].response.bodyFile: fixture 'fixtures/nope.json' does not exist in the scenario directory 'bad'."),
        Case("missing-fixture-in-ancestors", 7, 19, "network.routes[0].response.bodyFile: fixture 'fixtures/feed.json' does not exist in the scenario directory 'bad' or those of the scenarios it extends ('base')."),
        Case("route-extends-response-and-responses", 5, 7, "network.routes[0] has both 'response' and 'responses'; keep one."),
        Case("route-extends-unknown-route", 5, 16, "extends route 'fed', but 'base' has no route of that name. Did you mean 'feed'? Its routes: feed."),
        Case("route-extends-without-parent", 5, 16, "network.routes[0] extends a route, but this scenario extends no scenario; add 'extends: SCENARIO' at the top, or write the whole route."),
        Case("missing-model", 1, 1, "no 'model'; name the Model this scenario runs (FeedReader, Ratings) or extend a scenario that does."),
        Case("no-response", 5, 7, "network.routes[0] has no 'response' or 'responses'; say what matching requests get, or add 'live: true' to send them to the real server."),
        Case("relative-url", 7, 14, "network.routes[0].request.url must be an absolute http or https URL (ws or wss for a WebSocket), got '/feed.json'."),
        Case("response-and-responses", 5, 7, "network.routes[0] has both 'response' and 'responses'; keep one."),
        Case("route-without-name", 5, 7, "network.routes[0] is missing the required key 'name'."),
        Case("routes-not-a-list", 5, 5, "network.routes must be a list of routes, got a mapping."),
        Case("seed-file-not-object", 4, 13, "keyValue.seedFile 'fixtures/seed.json' must hold a JSON object of keys to values."),
        Case("status-not-a-number", 10, 17, "network.routes[0].response.status must be an integer from 100 to 599, got 'ok'."),
        Case("status-out-of-range", 10, 17, "network.routes[0].response.status must be an integer from 100 to 599, got the number 700."),
        Case("template-on-fault", 8, 9, "network.routes[0].response has a 'fault' and 'template'; a fault sends no response, so keep only 'fault' and 'delay'."),
        Case("template-unknown-name", 9, 19, "network.routes[0].response.bodyFile 'fixtures/feed.json' reads 'reqest.url', which no request has. Did you mean 'request'? A template reads request.method, request.url, request.path, request.query.NAME, request.headers.NAME, request.body.FIELD and now."),
        Case("top-level-list", 1, 1, "the scenario must be a mapping of keys (description, model, extends, clock, keyValue, random, schedule, network), got a list."),
        Case("unknown-fault", 10, 16, "network.routes[0].response.fault must be one of timeout, connectionReset, connectionRefused, offline, cancelled, got 'ofline'. Did you mean 'offline'?"),
        Case("unknown-model", 2, 8, "unknown model 'FeedRead'. Did you mean 'FeedReader'? Known models: FeedReader, Ratings."),
        Case("unknown-route-key", 9, 7, "unknown key 'respons' in network.routes[0]. Did you mean 'response'? Allowed keys: name, request, response, responses, afterLast, live.", problems: 2),
        Case("unknown-top-level-key", 2, 1, "unknown key 'modle' in the scenario. Did you mean 'model'? Allowed keys: description, model, extends, clock, keyValue, random, schedule, network."),
        Case("unknown-unmatched-error", 4, 14, "network.unmatched must be one of timeout, connectionReset, connectionRefused, offline, cancelled, got 'refused'."),
        Case("url-and-url-pattern", 7, 9, "network.routes[0].request has both 'url' and 'urlPattern'; keep one."),
        Case("url-with-query", 7, 14, "network.routes[0].request.url must not contain a query; put query items under 'network.routes[0].request.query'."),
        Case("websocket-on-post", 7, 9, "network.routes[0]: route 'presence' answers with a 'webSocket' but matches POST requests; a WebSocket opens with a GET, so match method GET (or none)."),
        Case("stream-on-websocket-url", 7, 9, "network.routes[0]: route 'reply' answers with a 'stream' but matches the WebSocket URL 'wss://assistant.example/reply'; a streamed body answers an http or https request, a WebSocket route answers with 'webSocket'."),
        Case("yaml-bad-indentation", 2, 8, "YAML syntax error: mapping values are not allowed in this context."),
        Case("yaml-syntax", 2, 6, "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence)."),
    ]

    @Test(arguments: cases)
    func isRefusedWithTheExactMessageAndPlace(_ expected: Case) throws {
        let root = Self.corpus.appendingPathComponent(expected.directory)
        let catalog = ScenarioCatalog.load(from: [root], models: ["FeedReader", "Ratings"])
        #expect(catalog.scenarios["bad"] == nil)
        let problems = try #require(catalog.problems["bad"], "\(expected.directory) was accepted")
        #expect(problems.count == expected.problems, "\(problems)")
        #expect(problems == problems.inFileOrder, "problems are listed in file order")
        // The case's problem, found by its place: with several, another may come earlier in the file.
        let found = try #require(problems.first { $0.line == expected.line && $0.column == expected.column }, "\(problems)")
        // ROOT: the corpus directory read, which a message may name (where a missing parent was looked for).
        #expect(found.message == expected.message.replacingOccurrences(of: "ROOT", with: root.path))
        #expect(found.file == root.appendingPathComponent("bad/scenario.yaml").path)
    }

    @Test func everyCorpusDirectoryHasACase() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(directories == Self.cases.map(\.directory).sorted())
        #expect(directories.count >= 25)
    }
}
