import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the daemon's health: its version, scenarios and sessions (--json: GET /v1/health's body).")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let health = try await client.health()
            options.output(health) {
                var lines = [
                    "\(health.daemon ?? "scenariod") \(health.version) at \(client.socketPath): \(health.status)",
                    "  scenarios: \(Output.scenarioCounts(valid: health.scenarios, servingLastGood: health.scenariosServingLastGood, invalid: health.invalidScenarios))",
                    "   sessions: \(health.sessions)\(health.defaultSession.map { " (default: \($0))" } ?? "")",
                ]
                // A daemon before this field says nothing of it.
                if let ownership = health.taskOwnership { lines.append("      tasks: \(ownership.complete ? "owned, complete" : ownership.summary)") }
                return lines.joined(separator: "\n")
            }
        }
    }
}

struct Wait: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait until the daemon answers on its socket (a container's or a CI job's first step), then print its status line (--json: GET /v1/health's body).")
    @OptionGroup var options: ClientOptions
    @Option(help: ArgumentHelp("How long to wait at most (e.g. 30s).", valueName: "duration"),
            transform: { text in
                guard let duration = DurationText.parse(text) else {
                    throw ValidationError("'\(text)' is not a duration; write a number and a unit such as 30s.")
                }
                return duration
            })
    var upTo: Duration = .seconds(30)

    func run() async throws {
        let deadline = ContinuousClock.now + upTo
        try await options.run { client in
            while true {
                do {
                    let health = try await client.health()
                    options.output(health) { "\(health.daemon ?? "scenariod") \(health.version) at \(client.socketPath): \(health.status)" }
                    return
                } catch let error as ScenarioClientError {
                    // Not there yet, or not answering yet: try again until the deadline, then say why.
                    guard case .daemonUnreachable = error, ContinuousClock.now < deadline else { throw error }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        }
    }
}

struct Scenarios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the daemon's scenarios, with their problems.",
        discussion: "Exits 1 when any scenario has problems, including one that serves its last good version.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let scenarios = try await client.scenarios()
            options.output(scenarios) {
                var text = Output.table(["NAME", "MODEL", "VALID", "DESCRIPTION"], scenarios.map {
                    [$0.name, $0.model ?? "-", $0.servingLastGood ? "last good" : $0.valid ? "yes" : "no", $0.description ?? ""]
                })
                for scenario in scenarios where !scenario.problems.isEmpty {
                    let state = scenario.valid ? "serving its last good version; problems" : "problems"
                    text += "\n\n\(scenario.name): \(state):\n" + scenario.problems.map { "  \($0)" }.joined(separator: "\n")
                }
                return text
            }
            if scenarios.contains(where: { !$0.problems.isEmpty }) { throw ExitCode(1) }
        }
    }
}

struct Reload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the daemon re-read its scenario directories (like SIGHUP).",
        discussion: "Exits 1 when any scenario has problems; `scenarioctl scenarios` shows them.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let result = try await client.reloadScenarios()
            options.output(result) {
                var text = "reloaded: " + Output.scenarioCounts(valid: result.scenarios, servingLastGood: result.servingLastGood.count,
                                                                invalid: result.invalid.count)
                if !result.servingLastGood.isEmpty {
                    text += "\n  serving their last good version: \(result.servingLastGood.joined(separator: ", "))"
                }
                if !result.invalid.isEmpty { text += "\n  invalid: \(result.invalid.joined(separator: ", "))" }
                return text + (result.isClean ? "" : "\nscenarioctl scenarios shows the problems.")
            }
            if !result.isClean { throw ExitCode(1) }
        }
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scenario directories offline, without a running daemon.",
        discussion: """
        Each DIR is a scenario directory (holding scenario.yaml) or a directory of them; they are read together, \
        later ones overriding, as the daemon reads its --scenarios, so a scenario may extend one in an earlier DIR. \
        Only the DIRs given are read: a suite whose scenarios extend shipped ones names the shipped directory first \
        (scenarioctl validate /usr/share/scenariod/scenarios tests/scenarios); a parent none of them has is a problem \
        that says which of the daemon's default directories has it and the command line that reads it too. \
        The check is the daemon's own (`DAEMON --check`), since only the daemon knows its Models and services: \
        scenariod beside this scenarioctl (or on PATH) by default, a team's daemon with --daemon, found as a shell \
        finds a command: a NAME without a slash is looked up in each directory of PATH in turn (todod), one with a \
        slash is a path (./.build/debug/todod). Every problem is printed, each at its file, line and column. \
        Exits 1 when any has problems.
        """)

    @Argument(help: "Scenario directories, or directories of them.") var directories: [String]
    @OptionGroup var format: OutputOptions
    @Option(help: ArgumentHelp("The daemon whose Models and services the scenarios may name: a name looked up on PATH as a shell does, or a path.",
                               valueName: "name|path"))
    var daemon: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let executable = try daemon.map { try Self.executable(named: $0, path: environment["PATH"]) } ?? Self.shippedDaemon()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--check"] + (format.json ? ["--json"] : []) + directories.flatMap { ["--scenarios", $0] }
        do {
            try process.run()
        } catch {
            throw ValidationError("cannot run the daemon \(executable) to check the scenarios: \(error.localizedDescription); give --daemon NAME or PATH.")
        }
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus == 1 ? 1 : 2) }
    }

    /// The executable `name` names, as a shell finds a command: with a slash, that path; without, the first
    /// executable file of that name in the directories of `path` (an empty entry is the current directory).
    static func executable(named name: String, path: String?) throws -> String {
        let files = FileManager.default
        func runnable(_ candidate: String) -> Bool {
            var isDirectory: ObjCBool = false
            return files.fileExists(atPath: candidate, isDirectory: &isDirectory) && !isDirectory.boolValue && files.isExecutableFile(atPath: candidate)
        }
        if name.contains("/") {
            guard runnable(name) else {
                throw ValidationError("no executable daemon at \(name) (--daemon); build it, or give a name to look up on PATH, such as --daemon todod.")
            }
            return name
        }
        let directories = (path ?? "").split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        guard !name.isEmpty, let found = directories.map({ "\($0)/\(name)" }).first(where: runnable) else {
            throw ValidationError("no executable '\(name)' in any directory of PATH (\(path ?? "unset")) (--daemon); install the daemon, "
                + "add its directory to PATH, or give its path, such as --daemon ./.build/debug/\(name.isEmpty ? "todod" : name).")
        }
        return found
    }

    /// scenariod beside this executable (as installed and as built), else the first on PATH.
    static func shippedDaemon() throws -> String {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("scenariod").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        do {
            return try executable(named: "scenariod", path: ProcessInfo.processInfo.environment["PATH"])
        } catch {
            throw ValidationError("no scenariod beside scenarioctl or on PATH to check the scenarios with; give --daemon NAME or PATH.")
        }
    }
}
