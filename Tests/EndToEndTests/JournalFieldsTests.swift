import Foundation
import Testing

/// The daemon's log lines in a real journal: a systemd-journald started by hand in a private mount namespace
/// (never the host's), read back with `journalctl -o json`.
@Suite struct JournalFieldsTests {
    @Test func sessionLinesCarryTheStructuredFields() async throws {
        let out = try Binaries.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let script = Binaries.repository.appendingPathComponent("Tests/EndToEndTests/journal-fields.sh").path
        let run = try await ProcessResult.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", script,
                                                                   Binaries.scenariod, Binaries.scenarios.path, out.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = try String(contentsOf: out.appendingPathComponent("journal.json"), encoding: .utf8).split(separator: "\n")
        let entries = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        func field(_ entry: [String: Any], _ name: String) -> String? { entry[name] as? String }

        let j2 = entries.filter { field($0, "SESSION") == "j2" }
        #expect(j2.allSatisfy { field($0, "SCENARIO") == "offline-demo" && field($0, "MODEL") == "FeedReader" })
        let action = try #require(j2.first { field($0, "ACTION") == "setIsRead" }, "no ACTION=setIsRead line in \(j2)")
        #expect(field(action, "PRIORITY") == "6")
        #expect(field(action, "SYSLOG_IDENTIFIER") == "scenariod")
        #expect(field(action, "CODE_FILE")?.hasSuffix("Session+Model.swift") == true)
        #expect(Int(field(action, "CODE_LINE") ?? "") != nil)
        #expect(field(action, "CODE_FUNC")?.hasPrefix("perform") == true)

        let hits = j2.filter { field($0, "ROUTE") == "feed" }
        #expect(hits.count == 2, "launch and the 15-minute refresh")
        #expect(hits.allSatisfy { field($0, "HTTP_METHOD") == "GET" && field($0, "HTTP_URL") == "https://www.cocoawithlove.com/feed.json" })
        #expect(j2.contains { field($0, "MESSAGE") == "clock moved to 2026-11-01T09:15:00Z" })

        let miss = try #require(entries.first { field($0, "SESSION") == "j1" && field($0, "MESSAGE")?.contains("matched no route") == true })
        #expect(field(miss, "PRIORITY") == "4")
        #expect(field(miss, "ROUTE") == nil)
        #expect(entries.contains { field($0, "MESSAGE")?.hasPrefix("ready: ") == true && field($0, "PRIORITY") == "5" })
        #expect(entries.contains { field($0, "MESSAGE") == "stopping: finishing requests in flight" })
    }
}
