import Foundation
import Testing

/// The JSON Schema editors use agrees with the loader: it accepts every shipped scenario and rejects the corpus
/// cases a schema can see (the others need the file system or other scenarios).
@Suite struct JSONSchemaTests {
    static let schemaRejects = [
        "unknown-top-level-key", "unknown-route-key", "description-not-text", "missing-description", "bad-clock-mode",
        "bad-duration", "status-out-of-range", "status-not-a-number", "url-and-url-pattern", "url-with-query",
        "body-and-body-file", "fixture-absolute-path", "fixture-escapes-by-dotdot", "response-and-responses",
        "no-response", "empty-responses", "unknown-fault", "unknown-model", "routes-not-a-list", "route-without-name",
        "bad-network-mode", "bad-store", "forward-not-an-origin", "live-route-with-response", "record-with-routes",
        "system-clock-with-start", "unmatched-in-live-mode",
        "route-extends-response-and-responses", "match-two-ways", "body-field-not-a-pointer",
    ]

    @Test func everyShippedScenarioValidates() throws {
        let (status, output) = try check(shippedScenarios)
        #expect(status == 0, "\(output)")
        #expect(output.contains("11 passed, 0 failed") || output.contains(" passed, 0 failed"))
    }

    @Test func theSchemaRejectsTheCorpusCasesItCanSee() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-schema-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        for name in Self.schemaRejects {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: MalformedCorpusTests.corpus.appendingPathComponent("\(name)/bad/scenario.yaml"),
                to: root.appendingPathComponent("\(name)/scenario.yaml"))
        }
        let (status, output) = try check(root, "--expect-invalid")
        #expect(status == 0, "\(output)")
        #expect(output.contains("\(Self.schemaRejects.count) passed, 0 failed"))
    }

    private func check(_ directory: URL, _ extra: String...) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [repositoryRoot.appendingPathComponent("scripts/check-schema.py").path,
                             repositoryRoot.appendingPathComponent("schema/scenario.schema.json").path, directory.path] + extra
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
