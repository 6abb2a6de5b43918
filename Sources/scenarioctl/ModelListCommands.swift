import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

struct Models: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the Models the daemon hosts, with their actions and documented keys.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run { client in
            let models = try await client.models()
            options.output(models) {
                Output.table(["MODEL", "ACTIONS", "KEYS"], models.map {
                    [$0.name, $0.actions.map(\.name).joined(separator: ", "), $0.keys.map(\.key).joined(separator: ", ")]
                })
            }
        }
    }
}

struct Actions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a Model's actions and their arguments, as `do` takes them.",
        discussion: "Without MODEL: the Model of the session (--session, default the daemon's default session). --json prints the Model's entry of GET /v1/models.")
    @Argument(help: "A Model's name.") var model: String?
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions

    func run() async throws {
        try await options.run { client in
            let name = if let model { model } else { try await client.session(target.id).model }
            let models = try await client.models()
            guard let found = models.first(where: { $0.name == name }) else {
                FileHandle.standardError.write(Data("scenarioctl: the daemon hosts no Model '\(name)'; it hosts \(models.map(\.name).joined(separator: ", ")).\n".utf8))
                throw ExitCode(1)
            }
            options.output(found) {
                Output.table(["ACTION", "ARGUMENTS"], found.actions.map { action in
                    [action.name, action.arguments.map { "\($0.name)=<\($0.type)>\($0.required ? "" : " (optional)")" }.joined(separator: " ")]
                })
            }
        }
    }
}
