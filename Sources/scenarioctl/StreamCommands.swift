import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

/// `scenarioctl streams`: the session's open streams and WebSockets, and a presenter's say over them ("the server
/// now sends this", "it hangs up").
struct Streams: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams",
        abstract: "List the session's open streams (server-sent events, chunked bodies, WebSockets), push into one, or close it.",
        discussion: "A stream's number is its request's sequence number in the journal. A push or a close is a step of the session's history, so a rewind replays it.",
        subcommands: [List.self, Push.self, Close.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the open streams: how far each has got and when its next chunk is due.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws {
            try await options.run { client in
                let streams = try await client.streams(session: target.id)
                options.output(StreamListBody(streams: streams)) {
                    streams.isEmpty ? "no open streams" : streams.map(Streams.line).joined(separator: "\n")
                }
            }
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a chunk into an open stream now, as its server: an event (DATA, with --event and --id) or, with --text, raw text (a WebSocket's text message).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The stream's number.") var stream: Int
        @Argument(help: "The event's data.") var data: String?
        @Option(help: "The event's type.") var event: String?
        @Option(help: "The event's id.") var id: String?
        @Option(help: "Raw text sent exactly as written, instead of an event.") var text: String?

        func validate() throws {
            guard (data == nil) != (text == nil) else { throw ValidationError("give the event's DATA or --text, one of them.") }
        }

        func run() async throws {
            try await options.run { client in
                let state = try await client.pushToStream(stream, PushToStreamRequest(data: data, event: event, id: id, text: text),
                                                         session: target.id)
                print(Output.json(state))
            }
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End an open stream as its server: close it (a WebSocket with --code and --reason), or break it off with --fault.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The stream's number.") var stream: Int
        @Option(help: "timeout, connectionReset, connectionRefused, offline or cancelled: the error the Model's read throws.") var fault: String?
        @Option(help: "A WebSocket's close code (1000 unless given).") var code: Int?
        @Option(help: "A WebSocket's close reason.") var reason: String?

        func run() async throws {
            try await options.run { client in
                let state = try await client.closeStream(stream, CloseStreamRequest(fault: fault, code: code, reason: reason), session: target.id)
                print(Output.json(state))
            }
        }
    }

    /// `#2 events POST https://…/replies (reply): delivered 1, pending 0, next at …`; a live one says `live` after
    /// its kind.
    static func line(_ stream: StreamBody) -> String {
        let next = stream.nextAt.map { ", next at \(InstantText.format($0))" } ?? ""
        return "#\(stream.stream) \(stream.kind.rawValue)\(stream.live == true ? " live" : "") \(stream.method) \(stream.url)\(stream.route.map { " (\($0))" } ?? ""): "
            + "delivered \(stream.delivered), pending \(stream.pending)\(next)"
    }
}
