import Foundation
import ScenarioFormat
import Testing

/// `clock.timeZone`: the zone people read a scenario's clock in, for the dashboard; checked against the system's zones.
@Suite struct ClockTimeZoneTests {
    @Test func theDemoIsReadInSydneyAndItsParentNamesNoZone() throws {
        let catalog = ScenarioCatalog.load(from: [shippedScenarios], models: modelNames)
        #expect(try #require(catalog.scenarios["offline-demo"]).clock.timeZone == "Australia/Sydney")
        #expect(try #require(catalog.scenarios["first-launch"]).clock.timeZone == nil)
    }

    @Test func anUnknownZoneIsLocatedWithASuggestion() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-zone-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("s"), withIntermediateDirectories: true)
        try """
        description: A zone misspelt.
        model: FeedReader
        clock:
          start: 2026-11-01T09:00:00Z
          timeZone: Europe/Londn
        """.write(to: root.appendingPathComponent("s/scenario.yaml"), atomically: true, encoding: .utf8)
        let result = ScenarioCatalog.check([root.appendingPathComponent("s")], models: modelNames)
        let problem = try #require(result.problems.first)
        #expect(result.problems.count == 1)
        #expect(problem.description.hasSuffix("s/scenario.yaml:5:13: clock.timeZone 'Europe/Londn' is not a time zone this system knows; write an IANA name such as Europe/London or America/New_York. Did you mean 'Europe/London'?"),
                "\(problem)")
    }
}
