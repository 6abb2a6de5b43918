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
            // Examples may extend the shipped scenarios.
            let catalog = ScenarioCatalog.load(from: [shippedScenarios, root], models: modelNames)
            #expect(catalog.problems.isEmpty, "\(document), yaml example \(index + 1): \(catalog.problems)")
            #expect(catalog.scenarios["example"] != nil)
        }
    }

    static let exampleScenarios: [String] = {
        let root = repositoryRoot.appendingPathComponent("Examples/TodoDaemon/scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.compactMap { try? String(contentsOf: root.appendingPathComponent("\($0)/scenario.yaml"), encoding: .utf8) }
    }()
}
