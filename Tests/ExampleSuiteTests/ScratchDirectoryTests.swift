import FeedReader
import Foundation
import ScenarioTesting
import Testing

/// A run's shared daemon is a static that is never deinitialized, so the directory it keeps its socket, log and
/// state in outlived every test run (hundreds piled up in /tmp on a machine that runs the suite often). A daemon's
/// start now removes those of test processes that have ended, and no other.
@Suite struct ScratchDirectoryTests {
    @Test func aDaemonsStartRemovesTheDirectoriesOfEndedTestRuns() throws {
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let temporary = URL(fileURLWithPath: "/tmp")
        let mark = UUID().uuidString.prefix(8)
        let left = temporary.appendingPathComponent("scenario-testing-\(ended.processIdentifier)-\(mark)")
        let ours = temporary.appendingPathComponent("scenario-testing-\(getpid())-\(mark)")
        let older = temporary.appendingPathComponent("scenario-testing-\(mark)")
        for directory in [left, ours, older] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("state"), withIntermediateDirectories: true)
        }
        defer { for directory in [left, ours, older] { try? FileManager.default.removeItem(at: directory) } }

        _ = try TestDaemon.inProcess(models: [FeedReader.self])

        #expect(!FileManager.default.fileExists(atPath: left.path), "an ended run's directory is removed")
        #expect(FileManager.default.fileExists(atPath: ours.path), "this process's own directories stay")
        #expect(FileManager.default.fileExists(atPath: older.path), "a name without a process id is not ours to remove")
    }
}
