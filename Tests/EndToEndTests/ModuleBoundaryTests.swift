import Foundation
import Testing

/// DESIGN §3's arrows, read from the source tree: the example Models are known to the shipped executable alone,
/// and the engine, the format, the server, the wire bodies and the clients work for any team's Models.
@Suite struct ModuleBoundaryTests {
    static let sources = Binaries.repository.appendingPathComponent("Sources")
    /// The modules that may name the example Models: the executable that hosts them, and the Models themselves.
    static let allowed: Set<String> = ["scenariod", "FeedReader", "Ratings", "Assistant", "TripPlanner"]

    /// `file: import line` for every import in `module` of one of `forbidden`.
    static func imports(in module: String, of forbidden: Set<String>) throws -> [String] {
        var found: [String] = []
        let directory = sources.appendingPathComponent(module)
        for file in FileManager.default.enumerator(atPath: directory.path)?.compactMap({ $0 as? String }) ?? []
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let at = words.firstIndex(of: "import"), at + 1 < words.count, forbidden.contains(String(words[at + 1])) {
                    found.append("Sources/\(module)/\(file): \(line)")
                }
            }
        }
        return found
    }

    @Test func onlyTheShippedExecutableImportsTheExampleModels() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted()
        #expect(modules.contains("ScenarioHost") && modules.contains("scenariod"))
        let offenders = try modules.filter { !Self.allowed.contains($0) }.flatMap { try Self.imports(in: $0, of: ["FeedReader", "Ratings", "Assistant", "TripPlanner"]) }
        #expect(offenders.isEmpty, "only \(Self.allowed.sorted()) may import the example Models:\n\(offenders.joined(separator: "\n"))")
    }

    /// The wire bodies and the clients work without the engine: no fakes, no SQLite or HTTP client, no Models.
    @Test func theWireFormatAndTheClientsDoNotImportTheEngine() throws {
        let engine: Set<String> = ["Fakes", "LiveServices", "ScenarioFormat", "ScenarioHost", "ControlServer", "FeedReader", "Ratings", "Assistant", "TripPlanner"]
        let offenders = try ["ControlAPI", "ScenarioClient", "scenarioctl"].flatMap { try Self.imports(in: $0, of: engine) }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    /// A type named like its module hides the module in every file that imports both, so that file cannot name
    /// the module's other types through it (`ScenarioDaemon.Daemon` beside a type `ScenarioDaemon`). No module
    /// declares a type named like any module of the package; the example Models may keep theirs.
    @Test func noTypeIsNamedLikeAModule() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        #expect(modules.contains("ScenarioTesting") && modules.contains("Services"), "the modules are read from Sources")
        let declaration = /^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private|final|open|indirect)\s+)*(?:struct|class|enum|actor|protocol|typealias)\s+(\w+)/
        var offenders: [String] = []
        for module in modules where !Self.allowed.contains(module) {
            let directory = Self.sources.appendingPathComponent(module)
            for file in FileManager.default.enumerator(atPath: directory.path)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    if let name = line.firstMatch(of: declaration)?.output.1, modules.contains(String(name)) {
                        offenders.append("Sources/\(module)/\(file): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "rename these types:\n\(offenders.joined(separator: "\n"))")
    }

    /// Every target of Package.swift with the targets it depends on (products of other packages left out).
    static func targetDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: Binaries.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = /\.(?:target|executableTarget|testTarget|systemLibrary|plugin)\(\s*name: "([^"]+)"/
        let starts = manifest.matches(of: declaration)
        let names = Set(starts.map { String($0.output.1) })
        var dependencies: [String: Set<String>] = [:]
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : manifest.endIndex
            let quoted = manifest[start.range.upperBound..<end].matches(of: /"([^"]+)"/).map { String($0.output.1) }
            dependencies[String(start.output.1)] = Set(quoted).intersection(names)
        }
        return dependencies
    }

    /// DESIGN §3: the wire bodies, the clients and the Models do not link the engine, the fakes that run in a
    /// session, the task-ownership hooks or SQLite — through any chain of dependencies, not only their own imports.
    @Test func noClientOrModelLinksTheEngineOrTheHooksThroughAnyDependency() throws {
        let dependencies = try Self.targetDependencies()
        func closure(of target: String) -> Set<String> {
            var seen: Set<String> = [], next = [target]
            while let current = next.popLast() {
                for dependency in dependencies[current] ?? [] where seen.insert(dependency).inserted { next.append(dependency) }
            }
            return seen
        }
        let engine: Set<String> = ["SessionRuntime", "CTaskOwnership", "ScenarioHost", "ControlServer", "LiveServices", "CSQLite", "ScenarioDaemon", "Systemd"]
        // The reading is real: the shipped daemon reaches every one of them.
        #expect(closure(of: "scenariod").isSuperset(of: engine), "\(closure(of: "scenariod").sorted())")
        for client in ["ControlAPI", "ScenarioClient", "ScenarioImport", "ScenarioExplore", "ScenarioURLLoading", "scenarioctl", "FeedReader", "Ratings", "Assistant", "TaskModels"] {
            #expect(dependencies[client] != nil, "no target \(client) in Package.swift")
            let linked = closure(of: client).intersection(engine)
            #expect(linked.isEmpty, "\(client) links \(linked.sorted()) (all it reaches: \(closure(of: client).sorted()))")
        }
    }

    /// The session runtime (its executor, scope and the hooks that take runtime functions' places) is reached through
    /// the engine alone: the server and the daemon ask SessionHost, so the hooks have one door. Tests of the runtime
    /// itself, and the benchmarks of its parts, may name it.
    @Test func onlyTheEngineDependsOnTheSessionRuntime() throws {
        let dependencies = try Self.targetDependencies()
        let exempt: Set<String> = ["ScenarioHost", "FakesTests", "ModelTests", "ScenarioFormatTests", "GRPCTests", "ScenarioBenchmarks"]
        let dependents = dependencies.filter { $0.value.contains("SessionRuntime") }.map(\.key)
        #expect(dependents.contains("ScenarioHost"), "the reading is real: ScenarioHost depends on it")
        #expect(Set(dependents).subtracting(exempt).isEmpty, "\(Set(dependents).subtracting(exempt).sorted()) depend on SessionRuntime")
        #expect(dependencies.filter { $0.value.contains("CTaskOwnership") }.map(\.key) == ["SessionRuntime"])
        let importers = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { !["ScenarioHost", "SessionRuntime"].contains($0) }
            .flatMap { try Self.imports(in: $0, of: ["SessionRuntime", "CTaskOwnership"]) }
        #expect(importers.isEmpty, "\(importers.joined(separator: "\n"))")
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
