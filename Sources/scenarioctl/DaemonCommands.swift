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
                """
                \(health.daemon ?? "scenariod") \(health.version) at \(client.socketPath): \(health.status)
                  scenarios: \(Output.scenarioCounts(valid: health.scenarios, servingLastGood: health.scenariosServingLastGood,
                                                    invalid: health.invalidScenarios))
                   sessions: \(health.sessions)\(health.defaultSession.map { " (default: \($0))" } ?? "")
                """
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

struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "scenario", abstract: "Inspect one scenario.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a scenario as the daemon resolved it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The scenario's name.") var name: String

        func run() async throws {
            try await options.run { client in
                let scenario = try await client.scenario(name)
                options.output(scenario) {
                    func field(_ label: String, _ value: String) -> String {
                        String(repeating: " ", count: max(0, 11 - label.count)) + "\(label): \(value)"
                    }
                    var lines = [
                        "\(scenario.name): \(scenario.description)",
                        field("model", scenario.model),
                        field("extends", scenario.extends.isEmpty ? "-" : scenario.extends.joined(separator: " → ")),
                        field("clock", "\(Output.instant(scenario.clockStart)), \(scenario.clockMode)"),
                        field("seed", "\(scenario.seedKeys.isEmpty ? "-" : scenario.seedKeys.joined(separator: ", ")) (\(scenario.keyValueStore))"),
                        field("random", scenario.random),
                        field("services", scenario.services.isEmpty ? "-"
                              : scenario.services.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")),
                        field("network", scenario.network),
                        field("unmatched", scenario.network == "fake" ? scenario.unmatched : "sent to the live network"),
                    ]
                    if let live = scenario.live {
                        lines.append(field("live", "connect \(live.connectTimeout), read \(live.readTimeout), \(Output.count(live.redirects, "redirect"))"))
                        lines += live.forward.sorted { $0.key < $1.key }.map { field("forward", "\($0.key) → \($0.value)") }
                    }
                    lines.append(field("directory", scenario.directory))
                    return lines.joined(separator: "\n") + "\n\n" + Output.table(["ROUTE", "METHOD", "URL", "ANSWERS"], scenario.routes.map {
                        [$0.name, $0.method ?? "*", $0.url ?? "*", $0.live == true ? "live" : Self.answers($0)]
                    })
                }
            }
        }
    }
}

extension ScenarioCommand.Show {
    /// `200; 503 after 2s; fault timeout (then cycle)`: each answer in turn, and what follows the last.
    static func answers(_ route: ScenarioDetail.RouteSummary) -> String {
        let list = route.answers.map(\.summary).joined(separator: "; ")
        return route.answers.count > 1 ? "\(list) (then \(route.afterLast == "cycle" ? "from the first" : "the last again"))" : list
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
        The check is the daemon's own (`DAEMON --check`), since only the daemon knows its Models: scenariod beside \
        this scenarioctl (or on PATH) by default, a team's daemon with --daemon. Exits 1 when any has problems.
        """)

    @Argument(help: "Scenario directories, or directories of them.") var directories: [String]
    @OptionGroup var format: OutputOptions
    @Option(help: ArgumentHelp("The daemon executable whose Models the scenarios may name.", valueName: "path"))
    var daemon: String?

    func run() throws {
        let executable = try daemon ?? Self.shippedDaemon()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--check"] + (format.json ? ["--json"] : []) + directories.flatMap { ["--scenarios", $0] }
        do {
            try process.run()
        } catch {
            throw ValidationError("cannot run the daemon \(executable) to check the scenarios: \(error.localizedDescription); give --daemon PATH.")
        }
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus == 1 ? 1 : 2) }
    }

    /// scenariod beside this executable (as installed and as built), else the first on PATH.
    static func shippedDaemon() throws -> String {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("scenariod").path
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/scenariod" } ?? []
        guard let found = ([beside] + path).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ValidationError("no scenariod beside scenarioctl or on PATH to check the scenarios with; give --daemon PATH.")
        }
        return found
    }
}
