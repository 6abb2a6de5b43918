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
            SessionCommand.self, Do.self, State.self, Clock.self, KeyValue.self, ServiceCommand.self, Requests.self, Record.self, Watch.self,
        ])
}
