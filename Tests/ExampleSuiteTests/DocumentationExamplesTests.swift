import Foundation
import Testing

/// The docs' code examples are excerpts of code that runs: each fenced swift, python or sh block must appear
/// verbatim in a test, source or test script of the repository, so an example cannot go stale without failing this
/// test. The DocC catalogs' pages (every `Sources/*/*.docc/*.md`) are checked the same way.
@Suite struct DocumentationExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every page of every DocC catalog, as a path from the repository's root.
    static let catalogPages: [String] = {
        let sources = repository.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".md") && $0.contains(".docc/") }.map { "Sources/\($0)" }.sorted()
    }()

    /// A document, or one section of it (`README.md#Build on scenariod`: from that heading to the next).
    @Test(arguments: ["docs/testing-with-scenarios.md", "docs/explore-a-model.md", "docs/use-from-an-agent.md", "docs/import-what-you-have.md", "docs/serve-any-app.md", "README.md#Build on scenariod"] + catalogPages)
    func everyExampleIsAnExcerptOfRunningCode(_ document: String) throws {
        let parts = document.split(separator: "#", maxSplits: 1).map(String.init)
        var text = try String(contentsOf: Self.repository.appendingPathComponent(parts[0]), encoding: .utf8)
        if parts.count == 2 {
            let heading = try #require(text.range(of: "\n## \(parts[1])\n"), "\(parts[0]) has no section '\(parts[1])'")
            text = text[heading.upperBound...].components(separatedBy: "\n## ")[0]
        }
        let blocks = text.matches(of: /```(swift|python|sh)\n(.*?)```/.dotMatchesNewlines()).map { (String($0.1), String($0.2)) }
        // A guide without examples means the pattern above stopped finding them; a catalog page may have none.
        if !document.contains(".docc/") { #expect(blocks.count >= 2) }
        let folders = ["Tests/ExampleSuiteTests", "Tests/ScenarioDaemonTests", "Tests/Fixtures/TaskModels", "Tests/python", "Tests/agents", "Sources", "Examples/TodoDaemon/Sources",
                       "Examples/TodoDaemon/Tests"]
        // The test scripts run the shell examples (scripts/test the packaging command, for one).
        let manifests = try ["Examples/TodoDaemon/Package.swift", "scripts/test"].map {
            try String(contentsOf: Self.repository.appendingPathComponent($0), encoding: .utf8)
        }
        let sources = try folders.flatMap { try files(under: $0) } + manifests
        for (language, block) in blocks {
            let found = sources.contains { $0.contains(block) }
            #expect(found, "\(document): this \(language) example is not in any test or source file:\n\(block)")
        }
    }

    /// The catalogs this test reads are the ones there are: finding none would check nothing.
    @Test func theCatalogPagesAreFound() {
        #expect(Self.catalogPages.contains("Sources/ScenarioDaemon/ScenarioDaemon.docc/HostYourModel.md"))
        #expect(Self.catalogPages.contains("Sources/ScenarioTesting/ScenarioTesting.docc/TestWithScenarios.md"))
    }

    private func files(under folder: String) throws -> [String] {
        let root = Self.repository.appendingPathComponent(folder)
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".py") }
            .map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
    }
}
