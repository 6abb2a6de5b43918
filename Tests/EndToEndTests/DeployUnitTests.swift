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

/// The man pages render without a single warning, as `man` shows them.
@Suite struct ManPageTests {
    static let pages = ["scenariod.8", "scenarioctl.1", "scenariod.scenario.5"]

    @Test(arguments: pages)
    func rendersWithoutWarnings(_ page: String) async throws {
        let path = Binaries.repository.appendingPathComponent("man/\(page)").path
        let groff = try await ProcessResult.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["MAN_KEEP_STDERR"] = "1"
        let man = try await ProcessResult.run("/usr/bin/man", ["--warnings=w", "-l", path], environment: environment)
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
        #expect(man.stdout.contains("NAME"))
    }

    /// Every verb scenarioctl has is in its man page, so the page cannot fall behind the tool.
    @Test func scenarioctlsPageNamesEveryVerb() async throws {
        let help = try await ProcessResult.run(Binaries.scenarioctl, ["--help"])
        let page = try String(contentsOf: Binaries.repository.appendingPathComponent("man/scenarioctl.1"), encoding: .utf8)
        // Verb lines are "  verb   abstract"; wrapped abstracts are indented further.
        let verbs = help.stdout.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .compactMap { $0.firstMatch(of: /^  ([a-z]+) {2,}/).map { String($0.1) } }
        #expect(verbs.count >= 12)
        for verb in verbs {
            #expect(page.contains(".B \(verb)") || page.contains(".BR \(verb) ") || page.contains(".BI \"\(verb) "), "man/scenarioctl.1 does not describe '\(verb)'")
        }
    }
}
