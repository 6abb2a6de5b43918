public import Fakes
public import Foundation
import Yams

/// Every scenario found in a list of directories: the valid ones resolved, the others with their problems.
///
/// Directories are read in order and a later directory's scenario replaces a same-named one from an earlier
/// directory (shipped scenarios first, local overrides after, as `/usr/share` and `/etc` work).
public struct ScenarioCatalog: Sendable {
    /// Valid scenarios by name.
    public private(set) var scenarios: [String: Scenario] = [:]
    /// Invalid scenarios by name, each with every problem found.
    public private(set) var problems: [String: [ScenarioProblem]] = [:]
    /// Scenario directories that could not be read at all (listed in ``problems`` as `(path)` too).
    public private(set) var unreadableRoots: [URL] = []
    /// Where each scenario, valid or not, was read from (the directory that won, when several had it).
    public private(set) var directories: [String: URL] = [:]

    /// All scenario names, valid or not, sorted.
    public var names: [String] { Set(scenarios.keys).union(problems.keys).sorted() }

    /// Scenarios whose files have problems now but that serve the version last read without them, sorted.
    public var servingLastGood: [String] { problems.keys.filter { scenarios[$0] != nil }.sorted() }

    /// Scenarios that serve nothing: their files have problems and no earlier version loaded, sorted.
    public var invalid: [String] { problems.keys.filter { scenarios[$0] == nil }.sorted() }

    /// How many scenarios load as their files are now, without problems.
    public var validCount: Int { scenarios.count - servingLastGood.count }

    /// The file every scenario directory holds.
    public static let fileName = "scenario.yaml"

    /// Reads every `NAME/scenario.yaml` under `roots`.
    /// - Parameters:
    ///   - roots: Directories of scenario directories, lowest precedence first.
    ///   - models: The Model names a scenario may pick.
    ///   - services: The services a team defines, whose sections a scenario may have.
    ///   - elsewhere: Directories not read but looked in when an `extends:` names a scenario none of `roots` has
    ///     (a daemon's installed scenarios), so its problem can say which directory to name too.
    public static func load(from roots: [URL], models: [String], services: [ServiceDefinition] = [],
                            elsewhere: [URL] = []) -> ScenarioCatalog {
        var directories: [String: URL] = [:]
        var catalog = ScenarioCatalog()
        for root in roots {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
                catalog.problems["(\(root.path))"] = [ScenarioProblem(
                    file: root.path, message: "the scenarios directory cannot be read; check that it exists and is readable.")]
                catalog.unreadableRoots.append(root.standardizedFileURL)
                continue
            }
            for entry in entries where !entry.hasPrefix(".") {
                let directory = root.appendingPathComponent(entry)
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent(fileName).path) {
                    directories[entry] = directory
                }
            }
        }
        catalog.directories = directories
        let fixtures = FixtureReader()
        // Each file is read on its own, so the files are read on every core at once: most of a start-up's reading.
        let names = directories.keys.sorted()
        let composed = ConcurrentMap.map(names) { name in
            var (parser, text) = openFile(name: name, directory: directories[name]!, fixtures: fixtures, services: services)
            let root = text.flatMap { parser.compose($0) }
            return (parser: parser, root: root, size: text?.utf8.count ?? 0)
        }
        var documents: [String: (parser: ScenarioFileParser, root: Node, size: Int)] = [:]
        var parents: [String: String] = [:]
        for (name, (parser, root, size)) in zip(names, composed) {
            if let root {
                documents[name] = (parser, root, size)
                parents[name] = ScenarioFileParser.extends(of: root)
            } else {
                catalog.problems[name] = parser.reader.problems
            }
        }
        let parsedNames = documents.keys.sorted()
        // The longest file first: most of a file's time is what it declares (a GraphQL schema above all).
        let parsed = ConcurrentMap.map(parsedNames, heaviestFirst: { documents[$0]!.size }) { name in
            var parser = documents[name]!.parser
            // A fixture may be the file's own or one of the scenarios it extends, nearest first (cycles stop).
            var chain = [name]
            while let parent = parents[chain.last!], !chain.contains(parent), let directory = directories[parent] {
                chain.append(parent)
                parser.fixtureDirectories.append(directory)
            }
            return parser.parse(documents[name]!.root)
        }
        var files: [String: ScenarioFile] = [:]
        var partlyRead: [String: ScenarioFile] = [:]
        for (name, (file, problems)) in zip(parsedNames, parsed) {
            if problems.isEmpty {
                files[name] = file
            } else {
                // What can be checked without the parent is reported now too, so one pass shows every problem.
                catalog.problems[name] = (problems + ExtendsResolver.modelProblems(of: file, models: models)).inFileOrder
                partlyRead[name] = file
            }
        }
        var resolver = ExtendsResolver(files: files, invalid: Set(catalog.problems.keys), models: models, services: services)
        resolver.roots = roots
        resolver.elsewhere = elsewhere
        for name in files.keys {
            switch resolver.resolve(name) {
            case .success(let scenario): catalog.scenarios[name] = scenario
            case .failure(let problems): catalog.problems[name] = problems.list.inFileOrder
            }
        }
        // And what needs the parent, once the parent is read: a file with problems of its own hears about its model
        // and its route changes in the same pass.
        for (name, file) in partlyRead {
            guard let parent = file.extends.flatMap({ catalog.scenarios[$0.value] }) else { continue }
            let found = ExtendsResolver.parentProblems(of: file, parent: parent)
            if !found.isEmpty { catalog.problems[name] = (catalog.problems[name, default: []] + found).inFileOrder }
        }
        return catalog
    }

    /// This catalog, except that a scenario that is invalid here but was valid in `previous` keeps its previous
    /// version (and lists its new problems), and so does every scenario of a directory that could not be read this
    /// time: a bad edit or a vanished directory never takes away a scenario that was serving.
    public func keepingValidScenarios(from previous: ScenarioCatalog) -> ScenarioCatalog {
        var merged = self
        for (name, problems) in problems where merged.scenarios[name] == nil {
            if let old = previous.scenarios[name] {
                merged.scenarios[name] = old
                merged.problems[name] = problems
            }
        }
        for (name, old) in previous.scenarios where merged.scenarios[name] == nil
            && unreadableRoots.contains(old.directory.standardizedFileURL.deletingLastPathComponent()) {
            merged.scenarios[name] = old
        }
        return merged
    }

    /// A parser for the scenario in `directory` and the file's text, or nil text with the reason reported.
    private static func openFile(name: String, directory: URL, fixtures: FixtureReader,
                                 services: [ServiceDefinition]) -> (ScenarioFileParser, String?) {
        let path = directory.appendingPathComponent(fileName).path
        var parser = ScenarioFileParser(name: name, directory: directory, path: path, fixtures: fixtures, services: services)
        // Unreadable only if it vanished since it was listed: reported as empty.
        let data = FileManager.default.contents(atPath: path) ?? Data()
        guard let text = String(data: data, encoding: .utf8) else {
            parser.reader.report("the file is not UTF-8 text; save it as UTF-8.", at: nil)
            return (parser, nil)
        }
        return (parser, text)
    }
}
