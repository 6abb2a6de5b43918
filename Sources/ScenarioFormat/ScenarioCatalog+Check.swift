public import Fakes
public import Foundation
public import Services

extension ScenarioCatalog {
    /// What an offline check of scenario files found.
    public struct CheckResult: Sendable, Codable {
        /// The scenarios checked, in the order their paths were given.
        public var checked: [String]
        /// Every problem of those scenarios (and of paths that could not be read).
        public var problems: [ScenarioProblem]
    }

    /// Checks scenarios offline, as a daemon loading the same directories would see them.
    ///
    /// Each path is a scenario directory (holding `scenario.yaml`) or a directory of them. The directories are
    /// read together, in order and later winning, exactly as a daemon reads its `--scenarios`, so `extends`
    /// reaches across them: a local scenario may extend a shipped one given as an earlier path. Only the paths given
    /// are read, as a daemon given the same `--scenarios` reads only those; a scenario that extends one found only
    /// in `elsewhere` gets a problem naming the directory to add.
    /// - Parameters:
    ///   - paths: Scenario directories or directories of them, lowest precedence first.
    ///   - models: The Model names a scenario may pick.
    ///   - services: The services a team defines, whose sections a scenario may have.
    ///   - elsewhere: Directories not read but looked in for a scenario an `extends:` names and the paths lack.
    ///   - descriptions: The Models' descriptions, against which a scenario's `properties.yaml` is checked (its
    ///     action and argument names, its example arguments' types, its key-value keys); none checks the file's form
    ///     alone.
    public static func check(_ paths: [URL], models: [String], services: [ServiceDefinition] = [],
                             elsewhere: [URL] = [], descriptions: [ModelDescription] = []) -> CheckResult {
        var roots: [URL] = []
        var selected: [(root: URL, name: String?)] = []
        for path in paths.map(\.standardizedFileURL) {
            let isScenario = FileManager.default.fileExists(atPath: path.appendingPathComponent(fileName).path)
            let root = isScenario ? path.deletingLastPathComponent() : path
            if !roots.contains(root) { roots.append(root) }
            selected.append((root, isScenario ? path.lastPathComponent : nil))
        }
        let catalog = load(from: roots, models: models, services: services, elsewhere: elsewhere)
        var checked: [String] = []
        for (root, name) in selected {
            let names = name.map { [$0] } ?? catalog.names.filter {
                catalog.directories[$0]?.deletingLastPathComponent().standardizedFileURL.path == root.path
            }
            checked += names.filter { !checked.contains($0) }
        }
        let unreadable = catalog.unreadableRoots.flatMap { catalog.problems["(\($0.path))"] ?? [] }
        // A properties file is read by `explore`, not by the daemon, so its problems are checked here but do not make
        // the scenario unservable.
        let properties = checked.flatMap { name -> [ScenarioProblem] in
            guard let url = catalog.directories[name]?.appendingPathComponent(PropertiesFile.fileName),
                  FileManager.default.fileExists(atPath: url.path) else { return [] }
            let model = catalog.scenarios[name].flatMap { scenario in descriptions.first { $0.name == scenario.model } }
            do throws(PropertiesFileError) { _ = try PropertiesFile.load(from: url, model: model) } catch { return error.problems }
            return []
        }
        return CheckResult(checked: checked, problems: unreadable + checked.flatMap { catalog.problems[$0] ?? [] } + properties)
    }
}
