import Foundation
import Services
import Synchronization

/// Reads fixture files confined to their scenario's directory, each file once per catalog load, so every
/// scenario and session that uses a fixture shares the same read-only bytes. Scenario files are read on several
/// threads at once, so the cache is behind a lock.
final class FixtureReader: Sendable {
    private let cache = Mutex<[String: Data]>([:])

    /// The bytes of `relativePath` inside the first of `directories` that has it (a scenario's own directory, then
    /// those of the scenarios it extends, nearest first), or a message saying why it cannot be used.
    func read(_ relativePath: String, in directories: [URL]) -> Result<Data, FixtureError> {
        guard !relativePath.hasPrefix("/") else {
            return .failure(.init("fixture path '\(relativePath)' is absolute; write it relative to the scenario directory."))
        }
        guard !relativePath.split(separator: "/").contains("..") else {
            return .failure(.init("fixture path '\(relativePath)' leaves the scenario directory through '..'; keep fixtures inside it."))
        }
        guard let directory = directories.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent(relativePath).path)
        }) else {
            let names = directories.map { "'\($0.lastPathComponent)'" }
            let places = names.count == 1
                ? "the scenario directory \(names[0])"
                : "the scenario directory \(names[0]) or those of the scenarios it extends (\(names.dropFirst().joined(separator: ", ")))"
            return .failure(.init("fixture '\(relativePath)' does not exist in \(places)."))
        }
        let root = directory.resolvingSymlinksInPath().path + "/"
        let resolved = directory.appendingPathComponent(relativePath).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root) else {
            return .failure(.init("fixture '\(relativePath)' is a symlink to '\(resolved)', outside the scenario directory; copy the file in instead."))
        }
        if let data = cache.withCheckedLock({ $0[resolved] }) { return .success(data) }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            return .failure(.init("fixture '\(relativePath)' cannot be read; check it is a readable file."))
        }
        // Two files may read the same fixture at once: the first copy kept is the one both share.
        return .success(cache.withCheckedLock { cache in
            if let kept = cache[resolved] { return kept }
            cache[resolved] = data
            return data
        })
    }
}

/// Why a fixture cannot be used.
struct FixtureError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
