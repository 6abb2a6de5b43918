import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

struct Do: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Perform an action on the session's Model and print its state.",
        discussion: """
        Arguments are NAME=VALUE pairs (VALUE is read as JSON when it parses, else as text), or one JSON object:
          scenarioctl do setIsRead url=https://www.cocoawithlove.com/blog/services-layer.html value=false
          scenarioctl do rate '{"driver": 5, "bus": 4}'
        """)
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Argument(help: "The action's name.") var action: String
    @Argument(help: "NAME=VALUE pairs, or one JSON object.") var arguments: [String] = []

    func run() async throws {
        let parsed = try Self.parse(arguments)
        try await options.run { client in
            let state = try await client.perform(action, arguments: parsed, session: target.id)
            print(Output.json(state))
        }
    }

    static func parse(_ arguments: [String]) throws -> JSONValue {
        if arguments.count == 1, arguments[0].hasPrefix("{") {
            guard let value = try? JSONValue(json: Data(arguments[0].utf8)) else {
                throw ValidationError("the argument is not a valid JSON object: \(arguments[0])")
            }
            return value
        }
        var object: [String: JSONValue] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("'\(argument)' is not NAME=VALUE; write e.g. value=true or url=https://…")
            }
            let text = String(argument[argument.index(after: equals)...])
            object[String(argument[..<equals])] = (try? JSONValue(json: Data(text.utf8))) ?? .string(text)
        }
        return .object(object)
    }
}

struct State: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the session's Model state (JSON).")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Argument(help: "The session (or --session; default: the daemon's default session).") var session: String?

    func run() async throws {
        let id = try target.id(or: session)
        try await options.run { client in print(Output.json(try await client.state(session: id))) }
    }
}

struct Clock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show, advance or set the session's clock.",
        discussion: "scenarioctl clock | scenarioctl clock advance 15m | scenarioctl clock set 2026-11-01T12:00:00Z",
        subcommands: [Show.self, Advance.self, Set.self], defaultSubcommand: Show.self)

    /// The time; with `--json`, also the next instant something sleeps until (`nextWake`, absent when nothing
    /// does), as the API answered it.
    static func print(_ clock: ClockBody, _ options: ClientOptions) {
        options.output(clock) { Output.instant(clock.now) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the session's time.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws {
            try await options.run { client in Clock.print(try await client.clockBody(session: target.id), options) }
        }
    }

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move the clock forward; what falls due runs before this returns.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "A duration: 250ms, 2s, 15m, 1h30m.") var duration: String
        func run() async throws {
            try await options.run { client in Clock.print(try await client.advanceClockBody(by: duration, session: target.id), options) }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the clock to an instant.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "An ISO 8601 instant, e.g. 2026-11-01T12:00:00Z.") var instant: String
        func run() async throws {
            guard let date = InstantText.parse(instant) else {
                throw ValidationError(InstantText.problem(instant) ?? instant)
            }
            try await options.run { client in Clock.print(try await client.setClockBody(to: date, session: target.id), options) }
        }
    }
}
