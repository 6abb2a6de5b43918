import Foundation
import ScenarioFormat
import ScenarioImport
import XCTest

/// The WireMock import against the stub sets in `WireMock/` (read from the source tree, as SwiftPM resources would
/// copy them): `stubs` has every construct the importer translates or lists; the others are bad input.
final class WireMockImporterTests: XCTestCase {
    private let options = ImportOptions(scenario: "from-wiremock", model: "FeedReader")
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("WireMock")

    private func importStubs(_ options: ImportOptions? = nil) throws -> (scenario: ImportedScenario, yaml: String) {
        let scenario = try WireMockImporter.importScenario(fromDirectory: Self.fixtures.appendingPathComponent("stubs"), options: options ?? self.options)
        return (scenario, String(decoding: try XCTUnwrap(scenario.files["scenario.yaml"]), as: UTF8.self))
    }

    /// The import fails with an ImportError, and gives back no scenario.
    private func importError(_ directory: URL, file: StaticString = #filePath, line: UInt = #line) -> ImportError? {
        var imported: ImportedScenario?
        do {
            imported = try WireMockImporter.importScenario(fromDirectory: directory, options: options)
        } catch {
            XCTAssertNil(imported, file: file, line: line)
            return error
        }
        XCTFail("the import succeeded; expected an ImportError", file: file, line: line)
        return nil
    }

    private func assertContains(_ yaml: String, _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(yaml.contains(fragment), "missing:\n\(fragment)\nin:\n\(yaml)", file: file, line: line)
    }

    // MARK: Translation

    /// Matchers: urlPath and url (its query as `query`), case-insensitive equalTo as a regex, basic credentials
    /// left out, equalToJson as `body`, simple JSON paths as `bodyFields`, headers joined, a body file copied.
    func testRequestsAndResponsesTranslateExactly() throws {
        let (scenario, yaml) = try importStubs()
        XCTAssertEqual(scenario.routeCount, 13)
        XCTAssertTrue(yaml.hasPrefix("# Imported by scenarioctl from WireMock mappings in stubs; serves without a network.\n"), yaml)
        assertContains(yaml, "description: \"Imported from WireMock mappings in stubs: 26 mappings.\"\nmodel: FeedReader\n")
        assertContains(yaml, """
          - name: post-rating
            request:
              method: POST
              url: http://localhost:8080/ratings
              headers:
                Authorization:
                  present: true
              body:
                bus: 5
                driver: 4
              bodyFields:
                /driver:
                  present: true
                /items/0/id: "7"
            response:
              status: 201
              headers:
                Cache-Control: no-cache, no-store
              body:
                average: 4.5

        """)
        assertContains(yaml, """
          - name: the-feed
            request:
              method: GET
              url: http://localhost:8080/feed.json
              headers:
                Accept:
                  regex: (?i)application/feed\\+json
                Authorization:
                  present: true
            response:
              status: 200
              headers:
                Content-Type: application/feed+json
                Set-Cookie: <redacted>
              bodyFile: fixtures/feeds/feed.json
              delay: 250ms

        """)
        assertContains(yaml, """
          - name: get-search
            request:
              method: GET
              url: http://localhost:8080/search
              query:
                page: "1"
                q: swift concurrency

        """)
        assertContains(yaml, """
          - name: get-items
            request:
              method: GET
              urlPattern: http://localhost:8080/items/[^/]+

        """)
        assertContains(yaml, """
          - name: users-search
            request:
              urlPattern: http://localhost:8080/users/[0-9]+
              query:
                debug:
                  absent: true
                filter:
                  contains: active
                page:
                  regex: "[0-9]+"
                sort:
                  regex: (?i)Name
            response:
              status: 200
              body: users

        """)
        let feed = try Data(contentsOf: Self.fixtures.appendingPathComponent("stubs/__files/feeds/feed.json"))
        XCTAssertEqual(scenario.files["fixtures/feeds/feed.json"], feed)
        XCTAssertEqual(scenario.files["fixtures/05-faults-4.png"], Data(base64Encoded: "iVBORw0KGgo="))
        XCTAssertEqual(Set(scenario.files.keys), ["scenario.yaml", "fixtures/feeds/feed.json", "fixtures/05-faults-4.png"])
    }

    /// Faults: a reset as connectionReset (EMPTY_RESPONSE too, listed); a fixed delay kept; a random one listed.
    func testFaultsAndDelays() throws {
        let (_, yaml) = try importStubs()
        assertContains(yaml, "  - name: get-reset\n    request:\n      method: GET\n      url: http://localhost:8080/reset\n    response:\n      fault: connectionReset\n")
        assertContains(yaml, "      url: http://localhost:8080/empty\n    response:\n      fault: connectionReset\n      delay: 1500ms\n")
        assertContains(yaml, "      url: http://localhost:8080/slow\n    response:\n      status: 200\n      body: slow\n")
        XCTAssertFalse(yaml.contains("/malformed"), yaml)
    }

    /// A chain of states on one request answers in turn (repeating the last, or cycling back to Started); a read
    /// whose state a write sets answers `after:` the write's route.
    func testStatefulScenarios() throws {
        let (_, yaml) = try importStubs()
        assertContains(yaml, """
            responses:
            - status: 503
            - status: 503
            - status: 200
              body:
                ok: true
            afterLast: repeat

        """)
        assertContains(yaml, """
            responses:
            - body: "off"
            - body: "on"
            afterLast: cycle

        """)
        assertContains(yaml, """
          - name: get-items-2
            request:
              method: GET
              url: http://localhost:8080/todo/items
            responses:
            - status: 200
              body:
                items:
                - Buy milk
            - after: add-item
              status: 200
              body:
                items:
                - Buy milk
                - Cancel newspaper subscription
          - name: add-item
            request:
              method: POST
              url: http://localhost:8080/todo/items
              bodyText:
                contains: Cancel newspaper subscription
            response:
              status: 201

        """)
        XCTAssertFalse(yaml.contains("url: http://localhost:8080/x\n"), "the branching scenario is left out:\n\(yaml)")
    }

    /// Lower priority first, then file names (subdirectories included), whatever the files' order on disk.
    func testRouteOrderFollowsPriorityThenFileName() throws {
        let (_, yaml) = try importStubs()
        let names = yaml.split(separator: "\n").filter { $0.hasPrefix("  - name: ") }.map { $0.dropFirst(10) }
        XCTAssertEqual(names, ["post-rating", "the-feed", "get-search", "get-items", "users-search", "get-reset", "get-empty",
                               "get-slow", "get-logo", "get-status", "get-toggle", "get-items-2", "add-item"])
    }

    /// Everything not translated is listed with its place, in the result and atop scenario.yaml.
    func testUntranslatedPartsAreListed() throws {
        let (scenario, yaml) = try importStubs()
        XCTAssertEqual(scenario.untranslated.map(\.source), [
            "mappings/02-search.json /postServeActions",
            "mappings/02-search.json /request/url",
            "mappings/03-items.json /mappings/1/response/statusMessage",
            "mappings/05-faults.json /mappings/1/response/fault",
            "mappings/05-faults.json /mappings/2/response/fault",
            "mappings/05-faults.json /mappings/3/response/delayDistribution",
            "mappings/05-faults.json /mappings/4/response/transformers",
            "mappings/06-untranslatable.json /mappings/0/request/urlPattern",
            "mappings/06-untranslatable.json /mappings/1/response/proxyBaseUrl",
            "mappings/06-untranslatable.json /mappings/2/request/queryParameters/lang",
            "mappings/06-untranslatable.json /mappings/2/request/headers/X-Thing",
            "mappings/06-untranslatable.json /mappings/3/request/bodyPatterns/0/matchesJsonPath",
            "mappings/stateful/branch.json /mappings/0",
            "mappings/stateful/branch.json /mappings/1",
            "mappings/stateful/branch.json /mappings/2",
            "mappings/stateful/branch.json /mappings/3",
            "mappings/stateful/todo.json /mappings/1/requiredScenarioState",
        ])
        let reasons = Dictionary(scenario.untranslated.map { ($0.source, $0.reason) }) { first, _ in first }
        XCTAssertTrue(reasons["mappings/06-untranslatable.json /mappings/0/request/urlPattern"]!.contains("left out"))
        // A condition a route cannot say leaves its mapping out whole: a looser route would answer what WireMock refused.
        XCTAssertTrue(reasons["mappings/06-untranslatable.json /mappings/2/request/headers/X-Thing"]!.contains("doesNotContain"))
        XCTAssertTrue(reasons["mappings/06-untranslatable.json /mappings/2/request/headers/X-Thing"]!.contains("the mapping was left out"))
        XCTAssertFalse(yaml.contains("/ratings/bulk") || yaml.contains("not french"), yaml)
        XCTAssertTrue(reasons["mappings/stateful/branch.json /mappings/2"]!.contains("'Branching'"))
        XCTAssertTrue(reasons["mappings/02-search.json /request/url"]!.contains("more query items"))
        assertContains(yaml, "# Not translated (17):\n#   mappings/02-search.json /postServeActions: ")
    }

    /// --keep-secrets keeps basic credentials, header values and Set-Cookie.
    func testKeepSecrets() throws {
        var options = self.options
        options.keepSecrets = true
        let (_, yaml) = try importStubs(options)
        assertContains(yaml, "        Authorization: Basic YWxpY2U6czNjcmV0\n")
        assertContains(yaml, "        Authorization: Bearer tok-1\n")
        assertContains(yaml, "        Set-Cookie: session=abc\n")
        XCTAssertFalse(yaml.contains("Credentials were left out"), yaml)
    }

    /// The base URL joins every path, and is escaped in patterns.
    func testBaseURL() throws {
        var options = self.options
        options.baseURL = "https://api.example/"
        let (_, yaml) = try importStubs(options)
        assertContains(yaml, "      url: https://api.example/feed.json\n")
        assertContains(yaml, "      urlPattern: https://api\\.example/items/[^/]+\n")
    }

    /// The same stubs give the same bytes, and the scenario passes the offline check.
    func testDeterministicAndValid() throws {
        let (first, _) = try importStubs()
        let (second, _) = try importStubs()
        XCTAssertEqual(first.files, second.files)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try first.write(into: root)
        XCTAssertEqual(ScenarioCatalog.check([directory], models: ["FeedReader"]).problems.count, 0)
    }

    /// A state one mapping sets and no mapping answers in: the scenario's mappings are listed, not guessed at.
    func testUnfollowableStatesAreListed() throws {
        let root = try temporaryRoot(mappings: ["lost.json": """
            {"mappings": [
              {"scenarioName": "Lost", "requiredScenarioState": "Started", "newScenarioState": "gone",
               "request": {"urlPath": "/lost"}, "response": {"body": "once"}},
              {"request": {"urlPath": "/other"}, "response": {"body": "other"}}
            ]}
            """])
        defer { try? FileManager.default.removeItem(at: root) }
        let scenario = try WireMockImporter.importScenario(fromDirectory: root, options: options)
        XCTAssertEqual(scenario.routeCount, 1)
        XCTAssertEqual(scenario.untranslated.map(\.source), ["mappings/lost.json /mappings/0"])
        XCTAssertTrue(scenario.untranslated[0].reason.contains("state 'gone' is set but no mapping answers in it"), scenario.untranslated[0].reason)
    }

    /// A write WireMock matches in any state that sets a new one (no requiredScenarioState) is exactly after:: the
    /// read answers its Started mapping until the write has answered, then the other, for good.
    func testAWriteInAnyStateIsAnsweredAfter() throws {
        let root = try temporaryRoot(mappings: ["cart.json": """
            {"mappings": [
              {"scenarioName": "Cart", "requiredScenarioState": "Started",
               "request": {"method": "GET", "urlPath": "/cart"}, "response": {"jsonBody": {"items": []}}},
              {"name": "Add to cart", "scenarioName": "Cart", "newScenarioState": "Filled",
               "request": {"method": "POST", "urlPath": "/cart"}, "response": {"status": 201}},
              {"scenarioName": "Cart", "requiredScenarioState": "Filled",
               "request": {"method": "GET", "urlPath": "/cart"}, "response": {"jsonBody": {"items": ["tea"]}}}
            ]}
            """])
        defer { try? FileManager.default.removeItem(at: root) }
        let scenario = try WireMockImporter.importScenario(fromDirectory: root, options: options)
        XCTAssertEqual(scenario.untranslated, [])
        XCTAssertEqual(scenario.routeCount, 2)
        assertContains(String(decoding: try XCTUnwrap(scenario.files["scenario.yaml"]), as: UTF8.self), """
            responses:
            - body:
                items: []
            - after: add-to-cart
              body:
                items:
                - tea
          - name: add-to-cart
            request:
              method: POST
              url: http://localhost:8080/cart
            response:
              status: 201

        """)
    }

    // MARK: Bad input

    /// A matcher WireMock does not have is refused at its pointer, naming the ones it has.
    func testUnknownMatcherIsRefusedAtItsPointer() throws {
        let error = try XCTUnwrap(importError(Self.fixtures.appendingPathComponent("bad-matcher")))
        XCTAssertTrue(error.file.hasSuffix("bad-matcher/mappings/thing.json"), error.file)
        XCTAssertEqual(error.pointer, "/request/headers/X-Thing")
        XCTAssertTrue(error.problem.contains("'fooBar' is not a WireMock matcher"), error.problem)
        XCTAssertTrue(error.problem.contains("equalTo, binaryEqualTo, contains"), error.problem)
    }

    /// A mapping cut short is refused with the line and column where it stops.
    func testTruncatedMappingIsRefusedWithItsLineAndColumn() throws {
        let error = try XCTUnwrap(importError(Self.fixtures.appendingPathComponent("truncated")))
        XCTAssertTrue(error.file.hasSuffix("truncated/mappings/cut.json"), error.file)
        XCTAssertEqual(error.line, 5)
        XCTAssertEqual(error.column, 1)
        XCTAssertTrue(error.description.hasSuffix("cut.json:5:1: \(error.problem)"), error.description)
    }

    /// A body file outside __files, or missing, is refused at `/response/bodyFileName`.
    func testBodyFilesMustBeInsideFiles() throws {
        let escape = try XCTUnwrap(importError(Self.fixtures.appendingPathComponent("escape")))
        XCTAssertEqual(escape.pointer, "/response/bodyFileName")
        XCTAssertTrue(escape.problem.contains("leaves __files"), escape.problem)
        let missing = try XCTUnwrap(importError(Self.fixtures.appendingPathComponent("missing-file")))
        XCTAssertEqual(missing.pointer, "/response/bodyFileName")
        XCTAssertTrue(missing.problem.contains("__files/gone.json does not exist"), missing.problem)
    }

    /// No mappings directory, or one with no mappings, is refused.
    func testNoMappingsIsRefused() throws {
        let missing = try XCTUnwrap(importError(Self.fixtures.appendingPathComponent("does-not-exist")))
        XCTAssertTrue(missing.problem.contains("no mappings directory"), missing.problem)
        let root = try temporaryRoot(mappings: [:])
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = try XCTUnwrap(importError(root))
        XCTAssertTrue(empty.problem.contains("no WireMock mappings"), empty.problem)
    }

    private func temporaryRoot(mappings: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        for (name, text) in mappings {
            try Data(text.utf8).write(to: root.appendingPathComponent("mappings").appendingPathComponent(name))
        }
        return root
    }
}
