import ArgumentParser
import ControlAPI
import Foundation
import ScenarioClient
import Services

struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "scenario", abstract: "Inspect one scenario.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a scenario as the daemon resolved it, each setting marked with the scenario it came from.",
            discussion: """
            The scenarios it extends are merged in: each setting ends with ← and the scenario whose file set it (a \
            route changed with extends: lists both), or (default). A team service's fake state is shown whole, each \
            value marked, or (initial state). With --raw, the file as written instead, read from disk now.
            """)
        @OptionGroup var options: ClientOptions
        @Argument(help: "The scenario's name.") var name: String
        @Flag(help: "Print the scenario's file as written (as it is on disk now, valid or not) instead of the resolved scenario.")
        var raw = false

        func run() async throws {
            try await options.run { client in
                if raw {
                    let file = try await client.scenarioFile(name)
                    if options.json {
                        print(Output.json(file))
                    } else {
                        print(file.text, terminator: file.text.hasSuffix("\n") || file.text.isEmpty ? "" : "\n")
                    }
                    return
                }
                let scenario = try await client.scenario(name)
                options.output(scenario) { Self.text(scenario) }
            }
        }

        /// The resolved scenario, a setting a line, each marked with where it came from.
        static func text(_ scenario: ScenarioDetail) -> String {
            let sources = scenario.sources ?? [:]
            func mark(_ pointers: [String], otherwise: String = "(default)") -> String {
                let names = pointers.flatMap { sources[$0] ?? [] }.reduce(into: [String]()) { list, name in
                    if !list.contains(name) { list.append(name) }
                }
                return names.isEmpty ? otherwise : "← " + names.joined(separator: ", ")
            }
            func field(_ label: String, _ value: String) -> String {
                String(repeating: " ", count: max(0, 11 - label.count)) + "\(label): \(value)"
            }
            var lines: [(text: String, mark: String?)] = [
                ("\(scenario.name): \(scenario.description)", nil),
                (field("model", scenario.model), mark(["/model"])),
                (field("extends", scenario.extends.isEmpty ? "-" : scenario.extends.joined(separator: " → ")), nil),
                (field("clock", "\(Output.instant(scenario.clockStart)), \(scenario.clockMode)"
                    + (scenario.clockTimeZone.map { ", read in \($0)" } ?? "")), mark(["/clock"])),
                (field("seed", scenario.seedKeys.isEmpty ? "-" : scenario.seedKeys.joined(separator: ", ")),
                 scenario.seedKeys.isEmpty ? nil : seedMark(scenario.seedKeys, sources: sources)),
                (field("store", scenario.keyValueStore), mark(["/keyValue/store"])),
                (field("random", scenario.random), mark(["/random"])),
                (field("services", scenario.services.isEmpty ? "-"
                       : scenario.services.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")), nil),
                (field("network", scenario.network), mark(["/network/mode"])),
                (field("unmatched", scenario.network == "fake" ? scenario.unmatched : "sent to the live network"),
                 scenario.network == "fake" ? mark(["/network/unmatched"]) : nil),
            ]
            if let live = scenario.live {
                lines.append((field("live", "connect \(live.connectTimeout), read \(live.readTimeout), \(Output.count(live.redirects, "redirect"))"),
                              mark(["/network/timeouts/connect", "/network/timeouts/read", "/network/redirects"])))
                lines += live.forward.sorted { $0.key < $1.key }.map {
                    (field("forward", "\($0.key) → \($0.value)"), mark(["/network/forward/" + JSONValue.pointerToken($0.key)]))
                }
            }
            lines.append((field("directory", scenario.directory), nil))
            var text = marked(lines)
            text += "\n\n" + Output.table(["ROUTE", "METHOD", "URL", "ANSWERS", "FROM"], scenario.routes.map { route in
                let from = sources["/network/routes/" + JSONValue.pointerToken(route.name)] ?? []
                return [route.name, route.method ?? "*", route.url ?? "*", route.live == true ? "live" : answers(route),
                        from.isEmpty ? "-" : from.joined(separator: ", then ")]
            })
            for (service, setting) in scenario.services.sorted(by: { $0.key < $1.key }) {
                let pointer = "/" + JSONValue.pointerToken(service)
                guard setting == "fake", let state = scenario.serviceStates?[service] else {
                    text += "\n\n" + marked([("\(service): live", mark([pointer]))])
                    continue
                }
                let values = leaves(of: state, at: pointer).map { leaf -> (text: String, mark: String?) in
                    ("  " + leaf.label + ": " + compact(leaf.value), mark([nearest(leaf.pointer, in: sources)].compactMap { $0 }, otherwise: "(initial state)"))
                }
                text += "\n\n" + marked([("\(service) (fake state):", nil)] + values)
            }
            return text
        }

        /// `200; 503 after 2s; fault timeout (then cycle)`: each answer in turn, and what follows the last.
        static func answers(_ route: ScenarioDetail.RouteSummary) -> String {
            let list = route.answers.map(\.summary).joined(separator: "; ")
            return route.answers.count > 1 ? "\(list) (then \(route.afterLast == "cycle" ? "from the first" : "the last again"))" : list
        }

        /// `← a` when one scenario wrote every key, else each key's: `← items: a; lastNumber: b`.
        private static func seedMark(_ keys: [String], sources: [String: [String]]) -> String {
            let each = keys.map { key in (key, sources["/keyValue/seed/" + JSONValue.pointerToken(key)]?.joined(separator: ", ")) }
            let distinct = Set(each.map { $0.1 ?? "" })
            if distinct.count == 1, let only = distinct.first, !only.isEmpty { return "← " + only }
            return "← " + each.map { "\($0.0): \($0.1 ?? "(default)")" }.joined(separator: "; ")
        }

        /// Lines with their marks in one column, two spaces right of the longest line that has one.
        private static func marked(_ lines: [(text: String, mark: String?)]) -> String {
            let width = lines.filter { $0.mark != nil }.map(\.text.count).max() ?? 0
            return lines.map { line in
                guard let mark = line.mark else { return line.text }
                return line.text.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + mark
            }.joined(separator: "\n")
        }

        /// Each value of a state that a scenario writes whole: a scalar, a list, an empty mapping; a mapping's
        /// members one by one, as sections merge them.
        private static func leaves(of value: JSONValue, at pointer: String, label: String = "") -> [(label: String, pointer: String, value: JSONValue)] {
            if case .object(let members) = value, !members.isEmpty {
                return members.keys.sorted().flatMap { key in
                    leaves(of: members[key] ?? .null, at: pointer + "/" + JSONValue.pointerToken(key), label: label.isEmpty ? key : "\(label).\(key)")
                }
            }
            return [(label, pointer, value)]
        }

        /// The source of `pointer`, or of the nearest value above it that a file wrote whole.
        private static func nearest(_ pointer: String, in sources: [String: [String]]) -> String? {
            var candidate = pointer
            while !candidate.isEmpty {
                if sources[candidate] != nil { return candidate }
                guard let slash = candidate.lastIndex(of: "/") else { break }
                candidate = String(candidate[..<slash])
            }
            return nil
        }

        private static func compact(_ value: JSONValue) -> String {
            String(decoding: value.jsonData, as: UTF8.self)
        }
    }
}
