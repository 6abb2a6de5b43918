import Fakes
import Foundation
import Testing

/// The `--wrap` flags a static link needs are written where each build passes them (the release build of the Debian package, the
/// package-daemon plugin, the benchmark harness, the test that links without them and says so); each copy must list
/// exactly `TaskOwnershipCheck.linkerFlags`, or a binary linked from a stale copy silently owns no tasks.
@Suite struct LinkerFlagsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["scripts/build-release", "Plugins/PackageDaemon/PackageDaemon.swift", "Benchmarks/harness/run.py", "Tests/Integration/unwrapped-link.sh"])
    func everyCopyOfTheWrapFlagsIsTheLibrarysList(_ file: String) throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
        let expected = Set(TaskOwnershipCheck.linkerFlags.map { $0.replacingOccurrences(of: "--wrap=", with: "") })
        #expect(expected.count == 5)
        // `--wrap=NAME` as the script and the plugin write it; the harness writes the names and adds the prefix.
        var written = Set(text.matches(of: /--wrap=([A-Za-z_]+)/).map { String($0.1) })
        if file.hasSuffix(".py") {
            let names = try #require(text.firstMatch(of: /for name in \(([^)]*)\)/), "\(file) no longer lists the names as the test expects")
            written = Set(names.1.matches(of: /"([A-Za-z_]+)"/).map { String($0.1) })
        }
        #expect(written == expected, "\(file) wraps \(written.sorted()), the library needs \(expected.sorted())")
    }
}
