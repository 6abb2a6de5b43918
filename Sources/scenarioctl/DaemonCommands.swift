import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import ScenarioFormat
import ScenarioHost

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the daemon's health and its sessions.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let health = try await client.health()
            let sessions = try await client.sessions()
            struct Combined: Encodable { var health: HealthBody; var sessions: [SessionBody] }
            options.output(Combined(health: health, sessions: sessions)) {
                """
                scenariod \(health.version) at \(client.socketPath): \(health.status)
                  scenarios: \(health.scenarios) valid
                   sessions: \(health.sessions)\(health.defaultSession.map { " (default: \($0))" } ?? "")
                """
            }
        }
    }
}

struct Scenarios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the daemon's scenarios, with their problems.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let scenarios = try await client.scenarios()
            options.output(scenarios) {
                var text = Output.table(["NAME", "MODEL", "VALID", "DESCRIPTION"], scenarios.map {
                    [$0.name, $0.model ?? "-", $0.valid ? "yes" : "no", $0.description ?? ""]
                })
                for scenario in scenarios where !scenario.problems.isEmpty {
                    text += "\n\n\(scenario.name):\n" + scenario.problems.map { "  \($0)" }.joined(separator: "\n")
                }
                return text
            }
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
                    """
                    \(scenario.name): \(scenario.description)
                          model: \(scenario.model)
                        extends: \(scenario.extends.isEmpty ? "-" : scenario.extends.joined(separator: " → "))
                          clock: \(Output.instant(scenario.clockStart)), \(scenario.clockMode)
                           seed: \(scenario.seedKeys.isEmpty ? "-" : scenario.seedKeys.joined(separator: ", ")) (\(scenario.keyValueStore))
                        network: \(scenario.network)
                      unmatched: \(scenario.network == "fake" ? scenario.unmatched : "sent to the live network")
                      directory: \(scenario.directory)

                    """ + Output.table(["ROUTE", "METHOD", "URL", "ANSWERS"], scenario.routes.map {
                        [$0.name, $0.method ?? "*", $0.url ?? "*", $0.live == true ? "live" : "\($0.outcomes)"]
                    })
                }
            }
        }
    }
}

struct Reload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make the daemon re-read its scenario directories (like SIGHUP).")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let result = try await client.reloadScenarios()
            options.output(result) {
                "reloaded: \(result.scenarios) valid" + (result.invalid.isEmpty ? "" : "; with problems: \(result.invalid.joined(separator: ", "))")
            }
        }
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scenario directories offline, without a daemon.",
        discussion: "Each DIR is a scenario directory (holding scenario.yaml) or a directory of them. Exits 1 when any has problems.")

    @Argument(help: "Scenario directories, or directories of them.") var directories: [String]
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        let models = ModelRegistry.builtIn.names
        var problems: [ScenarioProblem] = []
        var checked: [String] = []
        for path in directories {
            let url = URL(fileURLWithPath: path)
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(ScenarioCatalog.fileName).path) {
                problems += ScenarioCatalog.validate(directory: url, models: models)
                checked.append(url.standardizedFileURL.lastPathComponent)
            } else {
                let catalog = ScenarioCatalog.load(from: [url], models: models)
                problems += catalog.problems.keys.sorted().flatMap { catalog.problems[$0] ?? [] }
                checked += catalog.names
            }
        }
        if json {
            struct Result: Encodable { var checked: [String]; var problems: [ScenarioProblem] }
            print(Output.json(Result(checked: checked, problems: problems)))
        } else {
            for problem in problems { print(problem) }
            print("\(checked.count) scenario\(checked.count == 1 ? "" : "s") checked, \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        }
        if !problems.isEmpty || checked.isEmpty { throw ExitCode(1) }
    }
}
