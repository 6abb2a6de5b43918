import Fakes
import Foundation

/// What to say of an `extends:` whose scenario is in none of the directories read: most often a suite's own
/// directory checked alone, whose scenarios extend shipped ones. The sentence names the missing scenario, the
/// directories that were read, and the command line that reads its directory too.
enum MissingParent {
    /// - Parameters:
    ///   - parent: The name `extends:` gives.
    ///   - file: The extending file's directory (`ROOT/NAME`).
    ///   - roots: The directories read, lowest precedence first.
    ///   - elsewhere: Directories where it may be instead (a daemon's installed scenarios), looked in, not read.
    ///   - known: Every scenario name that was read, for a suggestion.
    static func message(parent: String, file: URL, roots: [URL], elsewhere: [URL], known: [String]) -> String {
        let root = file.deletingLastPathComponent().path
        let read = roots.isEmpty ? root : roots.map(\.path).joined(separator: ", ")
        func naming(_ directory: String) -> String {
            "`scenarioctl validate \(directory) \(root)` (a daemon: `--scenarios \(directory) --scenarios \(root)`)"
        }
        let candidates = elsewhere.filter {
            !roots.map(\.standardizedFileURL).contains($0.standardizedFileURL) && FileManager.default.fileExists(atPath: $0.path)
        }
        if let found = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent(parent).appendingPathComponent(ScenarioCatalog.fileName).path)
        }) {
            return "extends '\(parent)', which is in none of the directories read (\(read)) but is in \(found.path): "
                + "name that directory too, before this one: \(naming(found.path))."
        }
        let notThere = candidates.isEmpty ? "" : " (not \(candidates.map(\.path).joined(separator: " or ")), where this daemon's own scenarios are)"
        return "extends '\(parent)', which is in none of the directories read (\(read)).\(Suggestion.didYouMean(parent, among: known)) "
            + "If it is in another directory\(notThere), name that directory too, before this one: \(naming("DIRECTORY"))."
    }
}
