import Foundation
import Testing

/// The daemon checks scenario files offline (`scenariod --check`, as `nginx -t`), prints the JSON Schema of its
/// own Models, and `scenarioctl validate` asks it.
@Suite struct OfflineCheckTests {
    static let malformed = Binaries.repository.appendingPathComponent("Tests/ScenarioFormatTests/Malformed")

    @Test func theShippedSchemaIsWhatScenariodPrints() async throws {
        let printed = try await ProcessResult.run(Binaries.scenariod, ["--print-schema"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let shipped = try String(contentsOf: Binaries.repository.appendingPathComponent("schema/scenario.schema.json"), encoding: .utf8)
        #expect(printed.stdout == shipped, "schema/scenario.schema.json is stale: regenerate it with `swift run scenariod --print-schema > schema/scenario.schema.json`")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        let model = (schema["properties"] as? [String: Any])?["model"] as? [String: Any]
        #expect(model?["enum"] as? [String] == ["Assistant", "FeedReader", "Ratings", "TripPlanner"])
    }

    @Test func theShippedScenariosPassTheCheck() async throws {
        let result = try await ProcessResult.run(Binaries.scenariod, ["--check", "--scenarios", Binaries.scenarios.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("scenarios checked, 0 problems\n"), "\(result.stdout)")
    }

    @Test func anUnknownModelFailsTheCheckWithItsPlace() async throws {
        let bad = Self.malformed.appendingPathComponent("unknown-model/bad").path
        let result = try await ProcessResult.run(Binaries.scenariod, ["--check", "--scenarios", bad])
        #expect(result.status == 1)
        #expect(result.stdout.contains("bad/scenario.yaml:2:8: unknown model 'FeedRead'. Did you mean 'FeedReader'?"), "\(result.stdout)")
        let json = try await ProcessResult.run(Binaries.scenariod, ["--check", "--json", "--scenarios", bad])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(decoded["checked"] as? [String] == ["bad"] && (decoded["problems"] as? [Any])?.count == 1)
    }

    @Test func validateAcrossTwoDirectoriesResolvesExtendsAsTheDaemonDoes() async throws {
        let local = try Binaries.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: local) }
        let mine = local.appendingPathComponent("later-demo")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try "description: The demo, a day later.\nextends: offline-demo\nclock:\n  start: 2026-11-02T09:00:00Z\n"
            .write(to: mine.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)

        let together = try await ProcessResult.run(Binaries.scenarioctl, ["validate", Binaries.scenarios.path, local.path])
        #expect(together.status == 0, "\(together.stdout)\(together.stderr)")
        let alone = try await ProcessResult.run(Binaries.scenarioctl, ["validate", mine.path])
        #expect(alone.status == 1 && alone.stdout.contains("offline-demo"), "\(alone.stdout)\(alone.stderr)")
        let missing = try await ProcessResult.run(Binaries.scenarioctl, ["validate", "--daemon", "/nonexistent/todod", mine.path])
        #expect(missing.status == 2 && missing.stderr.contains("--daemon"), "\(missing.stdout)\(missing.stderr)")
    }
}
