import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List what was done to the session, step by step, with the virtual time and the requests each caused.",
        discussion: "Step 0 is the session's start. `scenarioctl rewind N` returns the session to the moment after step N.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Argument(help: "The session (or --session; default: the daemon's default session).") var session: String?

    func run() async throws {
        let id = try target.id(or: session)
        try await options.run { client in
            let history = try await client.history(session: id)
            options.output(history) {
                var text = Output.table(["STEP", "TIME", "REQUESTS", "CHANGE"], history.steps.map {
                    ["\($0.step)", Output.instant($0.time), $0.requests.map { "#\($0)" }.joined(separator: " "), $0.summary]
                })
                if let reason = history.notRewindable { text += "\n(this session cannot be rewound: \(reason))" }
                return text
            }
        }
    }
}

struct Rewind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Return the session to the moment after step STEP of its history (0: its start); prints the Model's state.",
        discussion: """
        The session is rebuilt from its scenario and steps 1 to STEP are replayed; later steps are forgotten. \
        Refused for a session whose answers depend on the live network, the system's clock or randomness, or a \
        durable store. `scenarioctl history` lists the steps.
        """)
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Argument(help: "The step to return to (see `scenarioctl history`).") var step: Int
    @Argument(help: "The session (or --session; default: the daemon's default session).") var session: String?

    func validate() throws {
        guard step >= 0 else { throw ValidationError("STEP must be 0 (the session's start) or more, got \(step).") }
    }

    func run() async throws {
        let id = try target.id(or: session)
        try await options.run { client in print(Output.json(try await client.rewind(to: step, session: id))) }
    }
}
