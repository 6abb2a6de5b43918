import ArgumentParser
import Foundation
import ScenarioClient

/// The command-line client of scenariod, in the `*ctl` habit: verbs, human tables, `--json` for scripts.
@main
struct Scenarioctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarioctl",
        abstract: "Control a running scenariod: sessions, actions, state, clock, key-value state and requests.",
        discussion: """
        Exit status: 0 on success, 1 when the daemon refused the request or a scenario has problems, \
        2 for bad usage, 3 when no daemon answers at the socket.
        """,
        version: "0.1.0",
        subcommands: [
            Status.self, Wait.self, Scenarios.self, ScenarioCommand.self, Validate.self, Reload.self, Models.self, Actions.self,
            SessionCommand.self, Do.self, State.self, History.self, Rewind.self, Clock.self, KeyValue.self, ServiceCommand.self, Requests.self, Send.self, Sent.self, RouteCommand.self, Network.self, Streams.self, Record.self, Watch.self, Dashboard.self, Explore.self, Play.self, MCPCommand.self, ImportCommand.self,
        ])

    // Declared here so they are accepted before the verb as well as after it (`scenarioctl --socket PATH status`).
    @OptionGroup(title: "Global options") var client: ClientOptions
    @OptionGroup(title: "Global options") var target: SessionOptions

    /// ArgumentParser's own `main`, but bad usage exits 2 as documented, not EX_USAGE (64); and a verb that finds its
    /// input wrong says so without the root command's usage line, which would name no verb.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch let error as ValidationError {
            FileHandle.standardError.write(Data("scenarioctl: \(error.message)\n".utf8))
            exit(withError: ExitCode(2))
        } catch {
            exit(withError: error)
        }
    }
}
