import Foundation

/// Reads fixture files confined to their scenario's directory, each file once per catalog load, so every
/// scenario and session that uses a fixture shares the same read-only bytes.
final class FixtureReader {
    private var cache: [String: Data] = [:]

    /// The bytes of `relativePath` inside `directory`, or a message saying why it cannot be used.
    func read(_ relativePath: String, in directory: URL) -> Result<Data, FixtureError> {
        guard !relativePath.hasPrefix("/") else {
            return .failure(.init("fixture path '\(relativePath)' is absolute; write it relative to the scenario directory."))
        }
        guard !relativePath.split(separator: "/").contains("..") else {
            return .failure(.init("fixture path '\(relativePath)' leaves the scenario directory through '..'; keep fixtures inside it."))
        }
        let file = directory.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: file.path) else {
            return .failure(.init("fixture '\(relativePath)' does not exist in the scenario directory '\(directory.lastPathComponent)'."))
        }
        let root = directory.resolvingSymlinksInPath().path + "/"
        let resolved = file.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root) else {
            return .failure(.init("fixture '\(relativePath)' is a symlink to '\(resolved)', outside the scenario directory; copy the file in instead."))
        }
        if let data = cache[resolved] { return .success(data) }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            return .failure(.init("fixture '\(relativePath)' cannot be read; check it is a readable file."))
        }
        cache[resolved] = data
        return .success(data)
    }
}

/// Why a fixture cannot be used.
struct FixtureError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
