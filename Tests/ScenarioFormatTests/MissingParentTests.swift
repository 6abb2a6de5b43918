import Foundation
import ScenarioFormat
import Testing

/// A suite's own directory checked alone, whose scenario extends a shipped one (issue 33, item 6): the problem
/// names the missing scenario, the directories read, where the scenario is when a daemon's directory has it, and
/// the command line that reads that directory too.
@Suite struct MissingParentTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scenarios")
    static let models = ["FeedReader", "Ratings", "Assistant", "TripPlanner"]

    /// A directory of one scenario, `my-demo`, that extends `parent`.
    static func suite(extending parent: String) throws -> URL {
        let suite = FileManager.default.temporaryDirectory.appendingPathComponent("missing-parent-\(UUID().uuidString)")
        let directory = suite.appendingPathComponent("my-demo")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("description: Mine.\nextends: \(parent)\n".utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
        return suite
    }

    @Test func aParentInTheDaemonsDirectoryIsNamedWithTheCommandThatReadsIt() throws {
        let suite = try Self.suite(extending: "offline-demo")
        defer { try? FileManager.default.removeItem(at: suite) }
        let result = ScenarioCatalog.check([suite], models: Self.models, elsewhere: [Self.shipped])
        let problem = try #require(result.problems.first, "\(result)")
        #expect(result.problems.count == 1 && problem.line == 2 && problem.column == 10, "\(result.problems)")
        let shipped = Self.shipped.path, path = suite.path
        #expect(problem.message == "extends 'offline-demo', which is in none of the directories read (\(path)) but is in \(shipped): "
            + "name that directory too, before this one: `scenarioctl validate \(shipped) \(path)` "
            + "(a daemon: `--scenarios \(shipped) --scenarios \(path)`).")
        // Doing what it says checks clean.
        #expect(ScenarioCatalog.check([Self.shipped, suite], models: Self.models, elsewhere: [Self.shipped]).problems.isEmpty)
    }

    @Test func aParentNowhereSaysWhereItWasLookedFor() throws {
        let suite = try Self.suite(extending: "offline-dmeo")
        defer { try? FileManager.default.removeItem(at: suite) }
        let result = ScenarioCatalog.check([suite], models: Self.models, elsewhere: [Self.shipped])
        let problem = try #require(result.problems.first, "\(result)")
        let path = suite.path
        #expect(problem.message == "extends 'offline-dmeo', which is in none of the directories read (\(path)). "
            + "If it is in another directory (not \(Self.shipped.path), where this daemon's own scenarios are), name that "
            + "directory too, before this one: `scenarioctl validate DIRECTORY \(path)` (a daemon: `--scenarios DIRECTORY --scenarios \(path)`).")
    }
}
