import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient

struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Create, list, delete and reset sessions.",
        subcommands: [New.self, List.self, Show.self, Remove.self, Reset.self, Save.self])

    static func table(_ sessions: [SessionBody]) -> String {
        // ESCAPES: work of the Model the session could not see or order (`modelEscaped`); 0 is the only good count.
        Output.table(["ID", "SCENARIO", "MODEL", "CLOCK", "REQUESTS", "UNMATCHED", "ESCAPES"], sessions.map {
            [$0.id, $0.scenario, $0.model, Output.instant($0.now), "\($0.requests)", "\($0.unmatchedRequests)", "\($0.escapes.count)"]
        })
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a session of a scenario; prints its id.",
            discussion: """
            With --endpoint the session gets its own HTTP listener that answers every request through the session's \
            network, for an app the daemon does not host: 'socket' for a Unix socket beside the daemon's control \
            socket, or a loopback port (0 for any free one), which asks for the session's token unless --no-token. \
            `scenarioctl session show ID` prints where it listens, its token and its proxy URL.
            """)
        @OptionGroup var options: ClientOptions
        @Argument(help: "The scenario to run.") var scenario: String
        @Option(help: "An id of your choosing (letters, digits, '.', '_', '-').") var id: String?
        @Option(help: ArgumentHelp("Scenario sections for this session only, as JSON, @FILE or -: extra or replacing routes, seed, clock start (read as a scenario file that extends SCENARIO).", valueName: "json"))
        var overrides: String?
        @Option(help: ArgumentHelp("Give the session its own HTTP listener: 'socket', or a loopback port (0: any free one).", valueName: "socket|port"))
        var endpoint: String?
        @Flag(help: "A loopback endpoint that takes requests without the session's token (any local user can then reach the session).")
        var noToken = false
        @Option(help: ArgumentHelp("The origin a request to the endpoint's own address stands for (default: the routes' first).", valueName: "url"))
        var origin: String?

        func validate() throws {
            if let endpoint, endpoint != "socket", Int(endpoint) == nil {
                throw ValidationError("--endpoint takes 'socket' or a port number (0 for any free one), not '\(endpoint)'.")
            }
            if endpoint == nil, noToken || origin != nil {
                throw ValidationError("--no-token and --origin describe a session's endpoint; add --endpoint socket or --endpoint PORT.")
            }
            if noToken, endpoint == "socket" {
                throw ValidationError("--no-token is for a loopback port; a socket endpoint never asks for a token (it is reached as the control socket is).")
            }
        }

        func run() async throws {
            let json = try overrides.map { try JSONArgument.read($0, example: #"{"clock": {"start": "2027-01-01T00:00:00Z"}}"#) }
            let listener = endpoint.map { SessionEndpointRequest(port: Int($0), token: noToken ? false : nil, origin: origin) }
            try await options.run { client in
                let session = try await client.createSession(scenario: scenario, id: id, overrides: json, endpoint: listener)
                options.output(session) { session.id }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a session: its scenario, clock, requests and endpoint.",
            discussion: "With --proxy, only the endpoint's proxy URL, token included: HTTP_PROXY=$(scenarioctl session show ID --proxy).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The session (or --session; default: the daemon's default session).") var session: String?
        @Flag(help: "Print only the endpoint's proxy URL (a loopback endpoint's).") var proxy = false

        func run() async throws {
            let id = try target.id(or: session)
            try await options.run { client in
                let session = try await client.session(id)
                if proxy {
                    guard let url = session.endpoint?.proxy else {
                        FileHandle.standardError.write(Data("scenarioctl: session '\(id)' has no loopback endpoint; start one with `scenarioctl session new SCENARIO --endpoint 0`.\n".utf8))
                        throw ExitCode(1)
                    }
                    return print(url)
                }
                options.output(session) { SessionCommand.details(session) }
            }
        }
    }

    /// A session as `session show` prints it.
    static func details(_ session: SessionBody) -> String {
        var lines = [
            "id:        \(session.id)",
            "scenario:  \(session.scenario) (model \(session.model))",
            "clock:     \(Output.instant(session.now))",
            "requests:  \(session.requests) (\(session.unmatchedRequests) unmatched)",
            "escapes:   \(session.escapes.count)",
        ]
        if let endpoint = session.endpoint {
            if let socket = endpoint.socket {
                lines.append("endpoint:  \(socket)   (curl --unix-socket \(socket) \(endpoint.url)/PATH)")
            } else {
                lines.append("endpoint:  \(endpoint.url)")
            }
            if let token = endpoint.token { lines.append("token:     \(token)   (the Scenario-Token header)") }
            if let proxy = endpoint.proxy { lines.append("proxy:     \(proxy)") }
            if let origin = endpoint.origin { lines.append("origin:    \(origin)") }
        }
        return lines.joined(separator: "\n")
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
