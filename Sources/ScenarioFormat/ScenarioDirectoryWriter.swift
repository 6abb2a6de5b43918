public import Foundation

/// Writes a new scenario directory all at once: into a hidden directory first, renamed when complete, so a reload
/// never sees half a scenario.
public enum ScenarioDirectoryWriter {
    /// Writes `files` (paths relative to the scenario directory) as `root/name`.
    /// - Returns: the new scenario directory.
    /// - Throws: `CocoaError(.fileWriteFileExists)` when `root/name` exists; file system errors otherwise.
    public static func write(_ files: [String: Data], as name: String, into root: URL) throws -> URL {
        let target = root.appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: target.path])
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let staging = root.appendingPathComponent(".\(name).partial-\(UUID().uuidString)")
        do {
            for (path, data) in files {
                let file = staging.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: file)
            }
            try FileManager.default.moveItem(at: staging, to: target)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        return target
    }
}
