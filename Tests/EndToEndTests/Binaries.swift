import Foundation

/// Where the built executables and the repository are.
enum Binaries {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = repository.appendingPathComponent("scenarios")

    /// The test bundle sits beside the products it was built with (`.build/<triple>/debug`).
    static let directory: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: besideTests.appendingPathComponent("scenariod").path) { return besideTests }
        return repository.appendingPathComponent(".build/debug")
    }()

    static let scenariod = directory.appendingPathComponent("scenariod").path
    static let scenarioctl = directory.appendingPathComponent("scenarioctl").path
    /// A team's daemon with a service of its own (Tests/Fixtures/fixtured), which scenariod's Models do not have.
    static let fixtured = directory.appendingPathComponent("fixtured").path

    /// A fresh directory for one test's sockets and logs; short, since socket paths are limited to 108 bytes.
    static func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/scd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
