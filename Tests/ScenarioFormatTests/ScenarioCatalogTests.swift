import Fakes
import Foundation
import HTTPTypes
import ScenarioFormat
import Services
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let shippedScenarios = repositoryRoot.appendingPathComponent("scenarios")
let modelNames = ["FeedReader", "Ratings", "Assistant", "TripPlanner"]

@Suite struct ScenarioCatalogTests {
    let catalog = ScenarioCatalog.load(from: [shippedScenarios], models: modelNames)

    @Test func extendsInheritsAndAChildRouteReplacesItsParentsRouteOfTheSameName() throws {
        let expired = try #require(catalog.scenarios["ratings-expired-token"])
        #expect(expired.ancestors == ["ratings-signed-in", "ratings-signed-out"])
        #expect(expired.model == "Ratings")
        #expect(expired.routes.map(\.name) == ["rating", "rate", "sign-in", "wrong-password"])
        guard case .response(let response) = expired.routes[0].outcomes[0].result else {
            Issue.record("the child's rating route should answer with a response")
            return
        }
        #expect(response.head.status.code == 401)
        #expect(expired.seed["session"].map { String(decoding: $0, as: UTF8.self) } == #"{"token":"tok-alice-1","user":"alice"}"#)
        #expect(expired.clock.start == (try Date("2026-11-01T09:00:00Z", strategy: .iso8601)))
        #expect(expired.clock.mode == .frozen)
    }

    @Test func aChildChangesOneFieldOfItsParentsRouteAndKeepsTheRest() throws {
        let slow = try #require(catalog.scenarios["slow-network"]), parent = try #require(catalog.scenarios["first-launch"])
        let route = try #require(slow.routes.first { $0.name == "feed" })
        #expect(route.outcomes[0].delay == .seconds(2))
        #expect(String(describing: route.matcher.url) == String(describing: parent.routes[0].matcher.url))
        guard case .response(let changed) = route.outcomes[0].result, case .response(let original) = parent.routes[0].outcomes[0].result else {
            Issue.record("both feed routes should answer with a response")
            return
        }
        #expect(changed.head.status.code == 200)
        #expect(changed.body == original.body)
        #expect(changed.head.headerFields[.contentType] == "application/json")
    }

    @Test func aPatchMergesMappingsAndAFixturePathMayNameTheParentsFixture() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-patch-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "base/scenario.yaml": """
                description: Base.
                model: Ratings
                network:
                  routes:
                    - name: first
                      request: { method: GET, url: https://x.example/a, headers: { Accept: application/json } }
                      responses:
                        - { status: 200, headers: { X-One: "1" }, bodyFile: fixtures/a.json }
                        - { fault: timeout }
                    - name: second
                      request: { url: https://x.example/b }
                      response: { status: 204 }
                """,
            "base/fixtures/a.json": #"{"a":1}"#,
            "base/fixtures/b.json": #"{"b":2}"#,
            "middle/scenario.yaml": "description: Middle.\nextends: base\n",
            "child/scenario.yaml": """
                description: Child.
                extends: middle
                network:
                  routes:
                    - name: own
                      request: { url: https://x.example/own }
                      response: { bodyFile: fixtures/b.json }
                    - extends: first
                      request: { headers: { Authorization: { regex: "^Bearer " } } }
                      response: { headers: { X-Two: "2" }, delay: 1s }
                """,
        ]
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let loaded = ScenarioCatalog.load(from: [root], models: modelNames)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let child = try #require(loaded.scenarios["child"])
        #expect(child.routes.map(\.name) == ["own", "first", "second"])
        let first = child.routes[1]
        #expect(first.matcher.method == "GET")
        #expect(first.matcher.headers.keys.sorted() == ["Accept", "Authorization"])
        #expect(first.outcomes.map(\.delay) == [.seconds(1), .seconds(1)])
        guard case .response(let response) = first.outcomes[0].result, case .response(let own) = child.routes[0].outcomes[0].result else {
            Issue.record("the first answers should be responses")
            return
        }
        #expect(response.head.headerFields[HTTPField.Name("X-One")!] == "1")
        #expect(response.head.headerFields[HTTPField.Name("X-Two")!] == "2")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":1}"#)
        #expect(String(decoding: own.body, as: UTF8.self) == #"{"b":2}"#, "a fixture of the grandparent's directory")
        guard case .response(let fault) = first.outcomes[1].result else { return }
        Issue.record("the second answer should stay a fault, got \(fault.head.status)")
    }

    @Test func aFixtureIsReadOnceAndSharedByEveryScenarioThatUsesIt() throws {
        func feedBody(_ name: String) throws -> Data {
            let route = try #require(catalog.scenarios[name]?.routes.first { $0.name == "feed" })
            guard case .response(let response) = route.outcomes[0].result else { throw CancellationError() }
            return response.body
        }
        let first = try feedBody("first-launch"), inherited = try feedBody("offline-demo")
        #expect(first == inherited)
        let sameStorage = first.withUnsafeBytes { a in inherited.withUnsafeBytes { b in a.baseAddress == b.baseAddress } }
        #expect(sameStorage)
    }

    @Test func aLaterDirectoryOverridesASameNamedScenario() throws {
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-override-\(UUID())")
        defer { try? FileManager.default.removeItem(at: local) }
        try FileManager.default.createDirectory(at: local.appendingPathComponent("offline"), withIntermediateDirectories: true)
        try "description: Local override.\nmodel: FeedReader\nnetwork:\n  unmatched: timeout\n"
            .write(to: local.appendingPathComponent("offline/scenario.yaml"), atomically: true, encoding: .utf8)
        let merged = ScenarioCatalog.load(from: [shippedScenarios, local], models: modelNames)
        #expect(merged.scenarios["offline"]?.description == "Local override.")
        #expect(merged.scenarios["offline"]?.unmatched == .timeout)
        #expect(merged.scenarios["offline-demo"] != nil)
    }

    @Test func anUnreadableDirectoryIsAProblemNotACrash() {
        let missing = ScenarioCatalog.load(from: [URL(fileURLWithPath: "/nonexistent/scenarios")], models: modelNames)
        #expect(missing.scenarios.isEmpty)
        #expect(missing.problems.values.first?.first?.message == "the scenarios directory cannot be read; check that it exists and is readable.")
    }

    @Test func checkTakesOneScenarioDirectory() {
        let good = ScenarioCatalog.check([shippedScenarios.appendingPathComponent("offline-demo")], models: modelNames)
        #expect(good.checked == ["offline-demo"] && good.problems.isEmpty)
        let bad = ScenarioCatalog.check(
            [repositoryRoot.appendingPathComponent("Tests/ScenarioFormatTests/Malformed/unknown-model/bad")], models: modelNames)
        #expect(bad.checked == ["bad"])
        #expect(bad.problems.map(\.message) == ["unknown model 'FeedRead'. Did you mean 'FeedReader'? Known models: FeedReader, Ratings, Assistant, TripPlanner."])
        #expect(bad.problems.first?.description.hasSuffix("bad/scenario.yaml:2:8: unknown model 'FeedRead'. Did you mean 'FeedReader'? Known models: FeedReader, Ratings, Assistant, TripPlanner.") == true)
    }

    /// As the daemon reads `--scenarios /usr/share/… --scenarios /etc/…`: a local scenario extends a shipped one.
    @Test func checkResolvesExtendsAcrossDirectories() throws {
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: local) }
        let mine = local.appendingPathComponent("my-demo")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try "description: The demo, an hour later.\nextends: offline-demo\n".write(
            to: mine.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)

        let alone = ScenarioCatalog.check([local], models: modelNames)
        #expect(alone.checked == ["my-demo"] && !alone.problems.isEmpty)
        let together = ScenarioCatalog.check([shippedScenarios, local], models: modelNames)
        #expect(together.checked.contains("my-demo") && together.checked.contains("offline-demo"))
        #expect(together.problems.isEmpty, "\(together.problems)")
        let justMine = ScenarioCatalog.check([shippedScenarios, mine], models: modelNames)
        #expect(justMine.checked.contains("my-demo") && justMine.problems.isEmpty)
    }

    @Test func checkReportsAPathThatCannotBeRead() {
        let result = ScenarioCatalog.check([URL(fileURLWithPath: "/nonexistent/scenarios")], models: modelNames)
        #expect(result.checked.isEmpty && result.problems.count == 1)
    }

    @Test(arguments: [("250ms", 0.25), ("2s", 2), ("1.5s", 1.5), ("15m", 900), ("1h30m", 5400)])
    func durationsParse(text: String, seconds: Double) throws {
        let root = try scenario(withDelay: text)
        let catalog = ScenarioCatalog.load(from: [root], models: modelNames)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(catalog.scenarios["s"]?.routes.first?.outcomes.first?.delay.seconds == seconds)
    }

    /// Found by fuzzing the API: a duration too long for 64-bit milliseconds trapped instead of being refused.
    @Test(arguments: ["99999999999999999999h", "1e400s", "1234567h", "1.1234567s", "1s1s1s1s1s", "", "h", "1.2.3s", "1.s", ".5s"])
    func absurdDurationsAreRefusedNotCrashed(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    /// Instants are checked field by field (found by fuzzing: Foundation read 12:99 as 13:39 and refused valid
    /// offsets beyond ±18 hours).
    @Test func instantsAreStrictAndExact() {
        #expect(InstantText.parse("2026-11-01T09:00:00Z") == Date(timeIntervalSince1970: 1_793_523_600))
        #expect(InstantText.parse("2026-11-01T10:00:00.5+01:00") == Date(timeIntervalSince1970: 1_793_523_600.5))
        #expect(InstantText.parse("1970-01-01T00:00:00-23:59") == Date(timeIntervalSince1970: 86_340))
        #expect(InstantText.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(InstantText.parse("0110-10-15T07:18:30.0-18:02") != nil)
        #expect(InstantText.parse("2026-11-01T09:00:00.123456789Z") == Date(timeIntervalSince1970: 1_793_523_600.123456789))
        for bad in ["2024-01-01T12:99:00Z", "2026-02-31T00:00:00Z", "2023-02-29T00:00:00Z", "2026-11-01T09:00:00",
                    "2026-11-01T09:00:00+24:00", "2026-13-01T00:00:00Z", "2026-11-01 09:00:00Z",
                    "2026-11-01T09:00:00.Z", "2026-11-01T09:00:00.1234567890Z", "2026-11-01T09:00:00Zx", "2026-11-01T09:00:00+0100",
                    "+026-11-01T09:00:00Z", "2026-11-01T09:00:00+1:00", "2026-11-01T09:00:00z", ""] {
            #expect(InstantText.parse(bad) == nil, "\(bad) was accepted")
        }
    }

    private func scenario(withDelay delay: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-duration-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("s"), withIntermediateDirectories: true)
        try """
        description: Delay \(delay).
        model: FeedReader
        network:
          routes:
            - name: r
              response:
                delay: \(delay)
        """.write(to: root.appendingPathComponent("s/scenario.yaml"), atomically: true, encoding: .utf8)
        return root
    }
}
