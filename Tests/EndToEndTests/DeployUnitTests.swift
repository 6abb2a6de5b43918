import Foundation
import Testing

/// The systemd units in deploy/ as shipped: verified, rated SAFE, and installed by scripts/install.
@Suite struct DeployUnitTests {
    static let deploy = Binaries.repository.appendingPathComponent("deploy")
    static let units = ["scenariod@.service", "scenariod@.socket"].map { deploy.appendingPathComponent($0).path }

    @Test func systemdAnalyzeVerifyPrintsNothing() async throws {
        let script = Binaries.repository.appendingPathComponent("Tests/EndToEndTests/verify-units.sh").path
        let result = try await ProcessResult.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", script,
                                                                      Binaries.directory.path] + Self.units)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }

    @Test func theServiceIsRatedSafeWithExposureAtMostOne() async throws {
        let result = try await ProcessResult.run("/usr/bin/systemd-analyze", ["security", "--offline=true", Self.units[0]])
        let verdict = try #require(result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(result.stdout)\(result.stderr)")
        let words = verdict.split(separator: " ")
        let level = try #require(words.firstIndex { $0.hasSuffix(":") }.flatMap { Double(words[words.index(after: $0)]) })
        #expect(verdict.contains("SAFE"), "\(verdict)")
        #expect(level <= 1.0, "\(verdict)")
        print("systemd-analyze security: \(verdict.trimmingCharacters(in: .whitespaces))")
    }

    @Test func installPutsBinariesUnitsAndScenariosUnderThePrefix() async throws {
        let root = try Binaries.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await ProcessResult.run("/bin/bash", [Binaries.repository.appendingPathComponent("scripts/install").path,
                                                               "--destdir", root.path, "--bin", Binaries.directory.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for path in ["usr/bin/scenariod", "usr/bin/scenarioctl", "usr/lib/systemd/system/scenariod@.service",
                     "usr/lib/systemd/system/scenariod@.socket", "usr/lib/systemd/system/scenariod@live.service.d/network.conf",
                     "usr/share/scenariod/scenarios/offline-demo/scenario.yaml",
                     "usr/share/scenariod/scenarios/first-launch/fixtures/feed.json", "etc/scenariod/scenarios"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path) missing")
        }
        #expect(FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("usr/bin/scenariod").path))
    }
}
