import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

/// The output format, a global option: `validate` takes it too, without the connection options.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of tables, for scripts: the API's body, as `curl` would print it.")
    var json = false
}

/// Options every daemon-talking verb takes. They are global: `Scenarioctl` declares them as well, and ArgumentParser
/// hands a verb's option group the values its root parsed, so they may come before or after the verb.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's control socket. Default: $SCENARIOD_SOCKET, else the daemon's own default.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Talk to the systemd instance scenariod@NAME (socket /run/scenariod/NAME/control.sock).", valueName: "name"))
    var instance: String?

    @OptionGroup var format: OutputOptions

    @Option(help: ArgumentHelp("How long to wait for the daemon's answer (e.g. 2s, 500ms; event streams wait forever). Default: $SCENARIOD_TIMEOUT, else 10s.", valueName: "duration"),
            transform: { text in
                guard let duration = DurationText.parse(text) else {
                    throw ValidationError("'\(text)' is not a duration; write a number and a unit such as 2s or 500ms.")
                }
                return duration
            })
    var timeout: Duration?

    var json: Bool { format.json }

    var socketPath: String {
        if let socket { return socket }
        if let instance { return "/run/scenariod/\(instance)/control.sock" }
        let environment = ProcessInfo.processInfo.environment
        if let socket = environment["SCENARIOD_SOCKET"] { return socket }
        if let runtime = environment["XDG_RUNTIME_DIR"] { return "\(runtime)/scenariod/control.sock" }
        return "/tmp/scenariod-\(getuid())/control.sock"
    }

    var client: ControlClient { ControlClient(socketPath: socketPath, timeout: timeout) }

    /// Runs `body`, turning client errors into a message on stderr and the documented exit status.
    @discardableResult
    func run<Result>(_ body: (ControlClient) async throws -> Result) async throws -> Result {
        do {
            return try await body(client)
        } catch let error as ScenarioClientError {
            FileHandle.standardError.write(Data("scenarioctl: \(error)\n".utf8))
            switch error {
            case .daemonUnreachable, .noAnswer: throw ExitCode(3)
            case .api, .unexpectedResponse: throw ExitCode(1)
            }
        }
    }

    /// Prints `value` as JSON (with --json) or as the given human text.
    func output(_ value: some Encodable, human: () -> String) {
        if json {
            print(Output.json(value))
        } else {
            let text = human()
            if !text.isEmpty { print(text) }
        }
    }
}

/// The session a verb acts on: global too, but only the verbs that act on a session show it.
struct SessionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The session to act on. Default: the daemon's default session.", valueName: "id"))
    var session: String?

    /// The session given by `--session`, else the default one.
    var id: String { session ?? ControlClient.defaultSession }

    /// For verbs that also take the session as their argument (`session reset ID`, `state ID`): that, or `--session`,
    /// but not two different ones.
    func id(or positional: String?) throws -> String {
        guard let positional else { return id }
        if let session, session != positional {
            throw ValidationError("two sessions given: '\(positional)' and --session \(session); give one.")
        }
        return positional
    }
}

/// Shared output formatting.
enum Output {
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder.services
        encoder.outputFormatting.insert(.prettyPrinted)
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }

    /// Left-aligned columns with a header row; long cells are not cut.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func instant(_ date: Date) -> String { InstantText.format(date) }

    /// `12 valid, 1 serving its last good version, 2 invalid`, leaving out the counts that are zero.
    static func scenarioCounts(valid: Int, servingLastGood: Int, invalid: Int) -> String {
        (["\(valid) valid"] + (servingLastGood > 0 ? ["\(servingLastGood) serving \(servingLastGood == 1 ? "its" : "their") last good version"] : [])
            + (invalid > 0 ? ["\(invalid) invalid"] : [])).joined(separator: ", ")
    }

    /// `1 route`, `2 routes`.
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
