import ArgumentParser
import ControlAPI
import ScenarioClient
import Services

/// `scenarioctl service`: a team's own services. `show` prints the bare state, the JSON `set` takes, so
/// `service show NAME > s.json`, an edit, and `service set NAME @s.json` make a round trip; `patch` changes a part.
struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service", abstract: "List the services the daemon's team defines; read, replace and patch a fake's state.",
        subcommands: [List.self, Show.self, Set.self, Patch.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the services, fake or live in this session.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws {
            try await options.run { client in
                let services = try await client.services(session: target.id)
                options.output(ServiceListBody(services: services)) {
                    services.isEmpty ? "The daemon defines no services of its own."
                        : Output.table(["SERVICE", "MODE", "DESCRIPTION"], services.map { [$0.name, $0.mode, $0.description] })
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the state of a service's fake (JSON, as 'service set' takes it).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The service's name (its scenario section).") var name: String
        func run() async throws {
            try await options.run { client in
                let state = try await client.serviceState(name, session: target.id)
                options.output(state) { Output.json(state) }
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the whole state of a service's fake; STATE is JSON, or @FILE, or - for standard input.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The service's name (its scenario section).") var name: String
        @Argument(help: "The new state as JSON, @FILE or -.") var state: String
        func run() async throws {
            let json = try JSONArgument.read(state, example: #"{"permission": "denied", "delivered": []}"#)
            try await options.run { client in
                let state = try await client.setServiceState(name, to: json, session: target.id)
                options.output(state) { Output.json(state) }
            }
        }
    }

    struct Patch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change part of the state of a service's fake with a JSON merge patch (RFC 7396); PATCH is JSON, or @FILE, or - for standard input.",
            discussion: """
            Members of the patch replace the state's, objects merging key by key; a null member removes its key; a \
            patch that is not an object replaces the whole state. The patched state is checked as 'service set' \
            checks a state, and a refusal changes nothing. Prints the whole state as stored.
            """)
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The service's name (its scenario section).") var name: String
        @Argument(help: "The merge patch as JSON, @FILE or -.") var patch: String
        func run() async throws {
            let json = try JSONArgument.read(patch, example: #"{"permission": "denied"}"#)
            try await options.run { client in
                let state = try await client.patchServiceState(name, with: json, session: target.id)
                options.output(state) { Output.json(state) }
            }
        }
    }
}
