import Foundation
import ScenarioImport
import XCTest

final class HARImporterTests: XCTestCase {
    private let options = ImportOptions(scenario: "from-har", model: "FeedReader")

    /// A file cut short is refused with the line and column where it stops, and nothing is built.
    func testTruncatedFileIsRefusedWithItsPlace() {
        let text = ##"{"log": {"entries": [{"startedDateTime": "2026-11-01T09:00:00Z","##
        XCTAssertThrowsError(try HARImporter.importScenario(from: Data(text.utf8), file: "cut.har", options: options)) { error in
            let error = error as! ImportError
            XCTAssertEqual(error.file, "cut.har")
            XCTAssertEqual(error.line, 1)
            XCTAssertNotNil(error.column)
            XCTAssertTrue(error.description.hasPrefix("cut.har:1:"), error.description)
        }
    }

    /// A member of the wrong type is refused at its JSON pointer.
    func testMistypedMemberIsRefusedAtItsPointer() {
        let text = #"{"log": {"entries": [{"startedDateTime": "2026-11-01T09:00:00Z", "request": {"method": "GET", "url": "https://a.example/x", "headers": []}, "response": {"status": "200", "headers": [], "content": {}}}]}}"#
        XCTAssertThrowsError(try HARImporter.importScenario(from: Data(text.utf8), file: "bad.har", options: options)) { error in
            XCTAssertEqual((error as! ImportError).pointer, "/log/entries/0/response/status")
        }
    }

    /// The same request answered twice differently becomes one route with both answers in order; a base64 body is
    /// kept byte for byte; a blocked request is listed as untranslated.
    func testRepeatedRequestBecomesASequenceAndBinaryBodiesStayBytes() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let text = """
        {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
          {"startedDateTime": "2026-11-01T09:00:00.000Z", "request": {"method": "GET", "url": "https://a.example/count", "headers": []},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\\"n\\":1}"}}},
          {"startedDateTime": "2026-11-01T09:00:01.000Z", "request": {"method": "GET", "url": "https://a.example/count", "headers": []},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\\"n\\":2}"}}},
          {"startedDateTime": "2026-11-01T09:00:02.000Z", "request": {"method": "GET", "url": "https://a.example/logo.png", "headers": []},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "image/png"}], "content": {"mimeType": "image/png", "encoding": "base64", "text": "\(png.base64EncodedString())"}}},
          {"startedDateTime": "2026-11-01T09:00:03.000Z", "request": {"method": "GET", "url": "https://ads.example/x", "headers": []},
           "response": {"status": 0, "headers": [], "content": {}, "_failureText": "net::ERR_BLOCKED_BY_CLIENT"}}
        ]}}
        """
        let scenario = try HARImporter.importScenario(from: Data(text.utf8), file: "two.har", options: options)
        XCTAssertEqual(scenario.routeCount, 2)
        let yaml = String(decoding: scenario.files["scenario.yaml"]!, as: UTF8.self)
        XCTAssertTrue(yaml.contains("responses:"), yaml)
        XCTAssertTrue(yaml.contains("model: FeedReader"), yaml)
        XCTAssertEqual(scenario.files.values.filter { $0 == png }.count, 1)
        XCTAssertEqual(scenario.untranslated.map(\.source), ["two.har /log/entries/3"])
        XCTAssertTrue(yaml.contains("ERR_BLOCKED_BY_CLIENT"), yaml)
    }

    /// A redirect the browser followed answers with where it led, as scenariod's network follows redirects.
    func testARedirectAnswersWithWhereItLed() throws {
        let text = """
        {"log": {"entries": [
          {"startedDateTime": "2026-11-01T09:00:00Z", "request": {"method": "GET", "url": "http://a.example/old", "headers": []},
           "response": {"status": 301, "headers": [{"name": "Location", "value": "/new"}], "content": {"size": 0}, "redirectURL": "/new"}},
          {"startedDateTime": "2026-11-01T09:00:01Z", "request": {"method": "GET", "url": "http://a.example/new", "headers": []},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain"}], "content": {"text": "moved here"}}}
        ]}}
        """
        let scenario = try HARImporter.importScenario(from: Data(text.utf8), file: "redirect.har", options: options)
        let yaml = String(decoding: scenario.files["scenario.yaml"]!, as: UTF8.self)
        XCTAssertFalse(yaml.contains("status: 301"), yaml)
        XCTAssertEqual(scenario.files.filter { $0.key.hasPrefix("fixtures/") }.values.filter { $0 == Data("moved here".utf8) }.count, 2, yaml)
    }

    /// Credentials in a query string are left out of the route's `query` matcher, as the same names in a body are
    /// (the matcher then takes any value); `--keep-secrets` keeps them. Found kept: `?access_token=…&api_key=…`.
    func testSecretsInTheQueryAreLeftOutUnlessKept() throws {
        let text = """
        {"log": {"entries": [
          {"startedDateTime": "2026-11-01T09:00:00Z", "request": {"method": "GET", "url": "https://a.example/items?page=2&access_token=tok-SECRET-1&api_key=key-SECRET-2&Client-Secret=cs-SECRET-3", "headers": []},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"text": "[]"}}}
        ]}}
        """
        let redacted = try HARImporter.importScenario(from: Data(text.utf8), file: "query.har", options: options)
        let yaml = String(decoding: redacted.files["scenario.yaml"]!, as: UTF8.self)
        XCTAssertFalse(yaml.contains("SECRET"), yaml)
        XCTAssertTrue(yaml.contains("page: \"2\"") || yaml.contains("page: '2'"), yaml)
        var keep = options
        keep.keepSecrets = true
        let kept = try HARImporter.importScenario(from: Data(text.utf8), file: "query.har", options: keep)
        let keptYAML = String(decoding: kept.files["scenario.yaml"]!, as: UTF8.self)
        for secret in ["tok-SECRET-1", "key-SECRET-2", "cs-SECRET-3"] { XCTAssertTrue(keptYAML.contains(secret), keptYAML) }
    }

    /// A redirect and a 204 have no body to lose: they are not listed as "the HAR has no body"; a 200 without its
    /// body still is.
    func testOnlyAnswersThatLostTheirBodyAreListed() throws {
        let text = """
        {"log": {"entries": [
          {"startedDateTime": "2026-11-01T09:00:00Z", "request": {"method": "GET", "url": "https://a.example/old", "headers": []},
           "response": {"status": 302, "headers": [{"name": "Location", "value": "/new"}], "content": {"size": 154}, "redirectURL": "/new"}},
          {"startedDateTime": "2026-11-01T09:00:01Z", "request": {"method": "GET", "url": "https://a.example/new", "headers": []},
           "response": {"status": 200, "headers": [], "content": {"text": "here"}}},
          {"startedDateTime": "2026-11-01T09:00:02Z", "request": {"method": "DELETE", "url": "https://a.example/item/1", "headers": []},
           "response": {"status": 204, "headers": [], "content": {"size": -1}}},
          {"startedDateTime": "2026-11-01T09:00:03Z", "request": {"method": "GET", "url": "https://a.example/unread", "headers": []},
           "response": {"status": 200, "headers": [], "content": {"size": 512}}}
        ]}}
        """
        let scenario = try HARImporter.importScenario(from: Data(text.utf8), file: "bodies.har", options: options)
        XCTAssertEqual(scenario.untranslated.map(\.source), ["bodies.har /log/entries/3/response/content"])
    }
}
