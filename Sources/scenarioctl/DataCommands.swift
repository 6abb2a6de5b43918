import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

struct KeyValue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kv", abstract: "List, read, write and remove the session's key-value state.",
        subcommands: [List.self, Get.self, Set.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List keys.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        func run() async throws {
            try await options.run { client in
                let keys = try await client.keyValueKeys(session: target.id)
                options.output(KeyValueListBody(keys: keys)) { keys.joined(separator: "\n") }
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a key's value (JSON).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument var key: String
        func run() async throws {
            try await options.run { client in print(Output.json(try await client.keyValue(key, session: target.id))) }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a key; VALUE is read as JSON when it parses, else as text.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument var key: String
        @Argument var value: String
        func run() async throws {
            let json = (try? JSONValue(json: Data(value.utf8))) ?? .string(value)
            try await options.run { client in
                let stored = try await client.setKeyValue(key, to: json, session: target.id)
                options.output(stored) { "" }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a key.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument var key: String
        func run() async throws {
            try await options.run { client in try await client.removeKeyValue(key, session: target.id) }
        }
    }
}

struct Requests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the session's journal of network requests.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Flag(help: "Only requests that matched no route, with the closest routes and where they differed.") var unmatched = false
    @Flag(help: "Empty the journal.") var clear = false
    @Flag(help: "How many requests each route answered, and how many matched none (exact however long the journal is).") var count = false

    func run() async throws {
        try await options.run { client in
            if clear { return try await client.clearJournal(session: target.id) }
            if count {
                let counts = try await client.requestCounts(session: target.id)
                return options.output(counts) {
                    Output.table(["ROUTE", "ANSWERED"], counts.routes.sorted { $0.key < $1.key }.map { [$0.key, "\($0.value)"] }
                        + [["(unmatched)", "\(counts.unmatched)"]] + (counts.live > 0 ? [["(live)", "\(counts.live)"]] : []))
                }
            }
            let journal = unmatched ? try await client.unmatchedRequests(session: target.id) : try await client.journal(session: target.id)
            options.output(journal) { Self.describe(journal, unmatchedOnly: unmatched) }
        }
    }

    /// `200`, `timeout`, or `pending (200 at 09:00:02Z)` for an answer still waiting on the session's clock.
    static func answer(_ entry: NetworkExchange) -> String {
        let answer = entry.status.map { "\($0)" } ?? entry.fault ?? entry.outcome ?? ""
        guard entry.pending == true else { return answer }
        return "pending (\(answer)\(entry.deliversAt.map { " at \(Output.instant($0))" } ?? ""))"
    }

    static func describe(_ journal: JournalBody, unmatchedOnly: Bool) -> String {
        var text = Output.table(["#", "TIME", "METHOD", "URL", "ROUTE", "ANSWER"], journal.entries.map {
            ["\($0.sequence)", Output.instant($0.time), $0.method, $0.url,
             $0.route ?? ($0.service != nil ? "(service)" : $0.condition.map { "(network: \($0))" } ?? ($0.live == true ? "(live)" : "(none)")),
             Self.answer($0) + ($0.outside == true ? " (sent from outside)" : "")]
        })
        for entry in journal.entries where entry.isUnmatched {
            text += "\n\n#\(entry.sequence) \(entry.method) \(entry.url) matched no route."
            for miss in entry.nearMisses ?? [] {
                text += "\n  \(miss.explanation)"
            }
        }
        if journal.dropped > 0 { text += "\n\n(\(journal.dropped) older entries dropped; the journal keeps \(journal.capacity))" }
        return text
    }
}

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn what a recording session sent to the real network into a scenario.", subcommands: [Save.self])

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save the session's recording as a new scenario that replays without a network.",
            discussion: "The session's scenario must have 'network: record'. Authorization, Cookie and Set-Cookie values are left out unless --keep-secrets is given.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var target: SessionOptions
        @Argument(help: "The new scenario's name.") var name: String
        @Flag(name: .customLong("keep-secrets"), help: "Keep Authorization, Cookie and Set-Cookie values in the saved scenario.") var keepSecrets = false

        func run() async throws {
            try await options.run { client in
                let saved = try await client.saveRecording(as: name, keepSecrets: keepSecrets, session: target.id)
                options.output(saved) {
                    "saved scenario '\(saved.scenario)' in \(saved.directory) (\(Output.count(saved.routes, "route")), \(Output.count(saved.files, "file")))\n" +
                        "replay it with: scenarioctl session new \(saved.scenario)"
                }
            }
        }
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the session's events as they happen, until interrupted.",
        discussion: """
        Each event is numbered (#N, or "id" with --json); --after N resumes after event N, printing what was missed, \
        or a gap event when it is no longer retained. When the daemon stops or restarts, watch says so on stderr and \
        reconnects every second, resuming after the last event it printed; it exits 1 when the session is gone \
        (deleted, or not there after a restart). --no-reconnect exits instead: 0 when the stream ends, 3 when the \
        daemon cannot be reached.
        """)
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Option(help: ArgumentHelp("Resume after this event id: print the events missed since, then the new ones.", valueName: "id"))
    var after: Int?
    @Flag(help: "Exit when the stream ends or the daemon cannot be reached, instead of reconnecting.")
    var noReconnect = false

    func run() async throws {
        try await options.run { client in
            var last = after
            var outage: String?
            while true {
                let ended: String
                do {
                    let events = try await client.events(session: target.id, after: last)
                    if outage != nil {
                        Self.report("reconnected to \(options.socketPath), resuming after event #\(last.map(String.init) ?? "none")")
                        outage = nil
                    }
                    for try await event in events {
                        show(event)
                        last = event.id ?? last
                    }
                    if noReconnect { return }
                    ended = "the event stream of session '\(target.id)' ended"
                } catch let error as ScenarioClientError where error.code != nil || noReconnect {
                    throw error // the API refused (the session is gone), or no retries were wanted
                } catch let error as ScenarioClientError {
                    ended = "\(error)"
                } catch {
                    let broke = "the connection to \(options.socketPath) broke in the middle of the stream (\(error))"
                    if noReconnect { throw ScenarioClientError.noAnswer(socket: options.socketPath, reason: broke, mayHaveBeenApplied: false) }
                    ended = broke
                }
                // Said once an outage; a session that is gone ends the loop with the API's noSuchSession.
                if outage == nil { Self.report("\(ended); reconnecting every second (Ctrl-C stops)") }
                outage = ended
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func show(_ event: ServerSentEvent) {
        let data = String(decoding: event.data.jsonData, as: UTF8.self)
        let id = event.id.map(String.init) ?? "null"
        let line = options.json ? "{\"id\":\(id),\"event\":\"\(event.name)\",\"data\":\(data)}" : "#\(id) \(event.name): \(data)"
        // Written unbuffered, so a pipe sees each event as it happens.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func report(_ message: String) {
        FileHandle.standardError.write(Data("scenarioctl watch: \(message)\n".utf8))
    }
}
