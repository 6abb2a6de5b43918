import Foundation
import ScenarioFormat
import Testing

/// The scenario examples in the docs are real scenarios: each yaml block loads with no problems, so the docs
/// cannot drift from the format.
@Suite struct DocumentedScenarioTests {
    @Test(arguments: ["docs/writing-a-scenario.md", "README.md"])
    func everyYAMLExampleIsAValidScenario(_ document: String) throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
        // A block copied from the example team package's scenarios is that package's (its daemon checks them).
        let examples = text.matches(of: /```yaml\n(.*?)```/.dotMatchesNewlines()).map { String($0.1) }
            .filter { !Self.exampleScenarios.contains($0) }
        #expect(!examples.isEmpty)
        for (index, example) in examples.enumerated() {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-doc-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            let directory = root.appendingPathComponent("example")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
            try example.write(to: directory.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
            // Examples may name fixtures/feed.json; give them one.
            try Data("{}".utf8).write(to: directory.appendingPathComponent("fixtures/feed.json"))
            let catalog = ScenarioCatalog.load(from: [root], models: modelNames)
            #expect(catalog.problems.isEmpty, "\(document), yaml example \(index + 1): \(catalog.problems)")
            #expect(catalog.scenarios["example"] != nil)
        }
    }

    /// The README's "Build on scenariod" blocks are copied from Examples/TodoDaemon, which `scripts/test` builds,
    /// tests and runs: each must still be there, word for word.
    @Test func everyBlockOfBuildOnScenariodIsInTheExamplePackage() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Build on scenariod\n"))
        let section = readme[start.upperBound...].components(separatedBy: "\n## ")[0]
        let blocks = section.matches(of: /```(?:swift|yaml)\n(.*?)```/.dotMatchesNewlines()).map { String($0.1) }
        #expect(blocks.count >= 4)
        let example = repositoryRoot.appendingPathComponent("Examples/TodoDaemon")
        let files = FileManager.default.enumerator(at: example, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { ["swift", "yaml"].contains($0.pathExtension) && !$0.path.contains("/.build/") } ?? []
        let sources = try files.map { try String(contentsOf: $0, encoding: .utf8) }
        for block in blocks {
            #expect(sources.contains { $0.contains(block) }, "README block not found in Examples/TodoDaemon:\n\(block)")
        }
    }

    static let exampleScenarios: [String] = {
        let root = repositoryRoot.appendingPathComponent("Examples/TodoDaemon/scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.compactMap { try? String(contentsOf: root.appendingPathComponent("\($0)/scenario.yaml"), encoding: .utf8) }
    }()
}
