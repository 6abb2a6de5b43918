import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient

struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Create, list, delete and reset sessions.",
        subcommands: [New.self, List.self, Remove.self, Reset.self, Save.self])

    static func table(_ sessions: [SessionBody]) -> String {
        // ESCAPES: work of the Model the session could not see or order (`modelEscaped`); 0 is the only good count.
        Output.table(["ID", "SCENARIO", "MODEL", "CLOCK", "REQUESTS", "UNMATCHED", "ESCAPES"], sessions.map {
            [$0.id, $0.scenario, $0.model, Output.instant($0.now), "\($0.requests)", "\($0.unmatchedRequests)", "\($0.escapes.count)"]
        })
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start a session of a scenario; prints its id.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The scenario to run.") var scenario: String
        @Option(help: "An id of your choosing (letters, digits, '.', '_', '-').") var id: String?
        @Option(help: ArgumentHelp("Scenario sections for this session only, as JSON, @FILE or -: extra or replacing routes, seed, clock start (read as a scenario file that extends SCENARIO).", valueName: "json"))
        var overrides: String?

        func run() async throws {
            let json = try overrides.map { try JSONArgument.read($0, example: #"{"clock": {"start": "2027-01-01T00:00:00Z"}}"#) }
            try await options.run { client in
                let session = try await client.createSession(scenario: scenario, id: id, overrides: json)
                options.output(session) { session.id }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List open sessions.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await options.run { client in
                let sessions = try await client.sessions()
                options.output(sessions) { SessionCommand.table(sessions) }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete sessions.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Session ids.") var ids: [String]

        func run() async throws {
            try await options.run { client in
                for id in ids { try await client.deleteSession(id) }
            }
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put a session back to its scenario's start.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The session (or --session; default: the daemon's default session).") var session: String?

        func run() async throws {
            let id = try target.id(or: session)
            try await options.run { client in
                let session = try await client.resetSession(id)
                options.output(session) { SessionCommand.table([session]) }
            }
        }
    }

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save the session as a new scenario that starts where it stands; prints the scenario's name.",
            discussion: """
            The new scenario extends the session's, with the session's key-value state as its seed and its virtual \
            time as its clock's start. It is written into the daemon's state directory and loaded at once.
            """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The new scenario's name (letters, digits, '.', '_', '-').") var name: String
        @Option(help: "Its description (default: which session of which scenario, and when).") var description: String?

        func run() async throws {
            let id = target.id
            try await options.run { client in
                let saved = try await client.saveSession(as: name, description: description, session: id)
                options.output(saved) { "\(saved.scenario)  (extends \(saved.extends); \(saved.directory))" }
            }
        }
    }
}
