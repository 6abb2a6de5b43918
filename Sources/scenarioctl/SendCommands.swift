import ArgumentParser
import ControlAPI
import Foundation
import NIOHTTP1
import ScenarioClient
import Services

/// `scenarioctl send`: one request through a session's network from outside, printed as `curl -i` prints an answer;
/// for checking imported routes, or what an app the daemon does not host would get.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a request through the session's network, exactly as its Model would, and print the answer as curl -i does.",
        discussion: """
        Routes, sequences, templating, network conditions, faults, delays and live routes answer it as they would the \
        Model's request; the journal lists it as sent from outside, with near misses when no route matched, and it is a \
        step of the session's history. An answer that waits on the session's clock (a route's delay) comes when the \
        clock reaches it: send waits up to --timeout for another client to move the clock, or with --no-wait prints the \
        request's number at once, to read later with `scenarioctl sent N`. A request that gets a transport error \
        instead of a response exits 1, the error and the closest routes on standard error.
        """)
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Argument(help: "The HTTP method: GET, POST, PUT, PATCH, DELETE, …") var method: String
    @Argument(help: "The absolute http or https URL, query included.") var url: String
    @Option(name: [.customShort("H"), .long], help: ArgumentHelp("A header field, as curl takes it (repeat for more).", valueName: "Name: value"))
    var header: [String] = []
    @Option(name: [.customShort("d"), .long], help: ArgumentHelp("The request body; @FILE reads it from a file, @- from standard input.", valueName: "data"))
    var data: String?
    @Flag(help: "Do not wait for an answer that waits on the session's clock: print the request's number, for `scenarioctl sent`.")
    var noWait = false

    func run() async throws {
        let body = try Self.body(of: data)
        var request = SendRequestBody(method: method, url: url,
                                      headers: header.isEmpty ? nil : header, wait: noWait ? false : nil)
        if let text = String(validating: body, as: UTF8.self) {
            request.body = body.isEmpty ? nil : text
        } else {
            request.bodyBase64 = body.base64EncodedString()
        }
        let sent = try await options.run { client in try await client.sendRequest(request, session: target.id) }
        try Self.print(sent, options)
    }

    /// The body `--data` gives: its text, or a file's or standard input's bytes.
    static func body(of data: String?) throws -> Data {
        guard let data else { return Data() }
        if data == "@-" { return FileHandle.standardInput.readDataToEndOfFile() }
        if data.hasPrefix("@") {
            guard let bytes = FileManager.default.contents(atPath: String(data.dropFirst())) else {
                throw ValidationError("cannot read \(data.dropFirst()); give a readable file after @, or @- for standard input.")
            }
            return bytes
        }
        return Data(data.utf8)
    }

    /// Prints `sent` as curl -i prints an answer: the status line, the header fields, a blank line and the body as it
    /// came. A transport error goes to standard error, with the closest routes, and exits 1.
    static func print(_ sent: SentRequestBody, _ options: ClientOptions) throws {
        if options.json {
            Swift.print(Output.json(sent))
        } else if sent.pending == true {
            let due = sent.journal?.deliversAt.map { " at \(InstantText.format($0)) on the session's clock" } ?? ""
            Swift.print("request \(sent.sequence) is pending: its answer is delivered\(due); read it then with scenarioctl sent \(sent.sequence)")
        } else if let status = sent.status {
            var head = "HTTP/1.1 \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\r\n"
            for line in sent.headers ?? [] { head += "\(line)\r\n" }
            head += "\r\n"
            FileHandle.standardOutput.write(Data(head.utf8) + sent.bodyData)
        }
        guard let fault = sent.fault else { return }
        var lines = ["scenarioctl: request \(sent.sequence) got no response: \(fault) (\(sent.message ?? "a transport error"))"]
        if let journal = sent.journal, journal.isUnmatched {
            lines.append(journal.nearMisses?.isEmpty == false ? "no route matched; \(journal.nearMisses!.map(\.explanation).joined(separator: "; "))" : "no route matched, and none came close")
        } else if let route = sent.journal?.route {
            lines.append("route \(route) answered with the fault")
        } else if let condition = sent.journal?.condition {
            lines.append("the network conditions (\(condition)) answered")
        }
        if !options.json { FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
        throw ExitCode(1)
    }
}

/// `scenarioctl sent N`: the answer of a request sent with `send --no-wait`, once its session's clock has delivered it.
struct Sent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the answer of a request sent with send --no-wait, or that it is still pending.",
        discussion: "N is the request's journal sequence number, which send --no-wait printed. A session keeps the newest 64 such requests since its start or last reset, their answers' bodies at most 16 MiB together.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Argument(help: "The request's number.") var sequence: Int

    func run() async throws {
        let sent = try await options.run { client in try await client.sentRequest(sequence, session: target.id) }
        try Send.print(sent, options)
    }
}
