import ArgumentParser
import Foundation
import ScenarioClient

/// `scenarioctl route`: add, replace or remove a route of a running session, without a scenario file.
struct RouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route", abstract: "Add, replace or remove a route of the running session; a reset undoes it.",
        subcommands: [Set.self, Remove.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add route NAME (tried before the scenario's) or replace the session's route of that name.",
            discussion: #"ROUTE is written as in a scenario file's network.routes, as JSON, @FILE or -: scenarioctl route set feed '{"request": {"method": "GET", "url": "https://www.cocoawithlove.com/feed.json"}, "response": {"status": 503}}'"#)
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The route's name.") var name: String
        @Argument(help: "The route as JSON, @FILE or -.") var route: String
        func run() async throws {
            let json = try JSONArgument.read(route, example: #"{"request": {"method": "GET"}, "response": {"status": 503}}"#)
            try await options.run { client in try await client.setRoute(name, to: json, session: target.id) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove the session's route NAME.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The route's name.") var name: String
        func run() async throws {
            try await options.run { client in try await client.removeRoute(name, session: target.id) }
        }
    }
}
