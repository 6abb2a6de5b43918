import Foundation
import Testing

/// DESIGN §3's arrows, read from the source tree: the example Models are known to the shipped executable alone,
/// and the engine, the format, the server, the wire bodies and the clients work for any team's Models.
@Suite struct ModuleBoundaryTests {
    static let sources = Binaries.repository.appendingPathComponent("Sources")
    /// The modules that may name the example Models: the executable that hosts them, and the Models themselves.
    static let allowed: Set<String> = ["scenariod", "FeedReader", "Ratings"]

    @Test func onlyTheShippedExecutableImportsTheExampleModels() throws {
        var offenders: [String] = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted()
        #expect(modules.contains("ScenarioHost") && modules.contains("scenariod"))
        for module in modules where !Self.allowed.contains(module) {
            let directory = Self.sources.appendingPathComponent(module)
            for file in FileManager.default.enumerator(atPath: directory.path)?.compactMap({ $0 as? String }) ?? []
            where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    if let at = words.firstIndex(of: "import"), at + 1 < words.count, ["FeedReader", "Ratings"].contains(words[at + 1]) {
                        offenders.append("Sources/\(module)/\(file): \(line)")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "only \(Self.allowed.sorted()) may import the example Models:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func noLibraryTargetDependsOnTheExampleModels() throws {
        let manifest = try String(contentsOf: Binaries.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Each `.target(name: "X", dependencies: [...])` up to the next target declaration.
        let targets = manifest.components(separatedBy: ".target(name: \"").dropFirst()
        #expect(targets.count >= 10)
        for target in targets {
            let name = String(target.prefix { $0 != "\"" })
            let declaration = target.components(separatedBy: "Target(name:").first ?? target
            #expect(!declaration.contains("\"FeedReader\"") && !declaration.contains("\"Ratings\""),
                    "library target \(name) depends on an example Model")
        }
    }
}
