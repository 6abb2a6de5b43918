import Foundation

extension TestDaemon {
    /// Where the daemons of this process's tests keep their socket, log and state: `/tmp/scenario-testing-PID-XXXXXXXX`.
    static let scratchPrefix = "scenario-testing-"

    /// A new directory name for a daemon of this process's tests (not created). The run's shared daemon
    /// (``shared``) is a static, never deinitialized, so its directory outlives the run that made it; each new one
    /// first removes the directories of test processes that have ended, so runs do not pile them up in `/tmp`.
    static func scratchDirectory(in temporary: URL = URL(fileURLWithPath: "/tmp")) -> URL {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(scratchPrefix) {
            // Only names with a process id: one of an older version has none, and is left as it is.
            let fields = name.dropFirst(scratchPrefix.count).split(separator: "-")
            guard fields.count == 2, let owner = pid_t(fields[0]), owner != getpid(), !isRunning(owner) else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        return temporary.appendingPathComponent("\(scratchPrefix)\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// False only when no process `pid` exists: one of another user's still counts as running.
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
