public import Foundation
import ScenarioFormat
import Services
import Yams

/// A scenario an importer built from something a team already has (a HAR file, WireMock mappings, an OpenAPI
/// document): the files of its directory, and every part of the source it could not translate, with the reason.
public struct ImportedScenario: Sendable {
    /// The scenario's name: its directory's name.
    public var name: String
    /// The Model it names (`model:`).
    public var model: String
    /// The files to write, by path relative to the scenario directory: `scenario.yaml` and `fixtures/…`.
    public var files: [String: Data]
    /// How many routes `scenario.yaml` has.
    public var routeCount: Int
    /// What the importer left out, each with where it was and why; also written at the top of `scenario.yaml`.
    public var untranslated: [UntranslatedPart]

    /// A scenario from files already built (a HAR file goes through ``ScenarioFormat/RecordedScenario``).
    public init(name: String, model: String, files: [String: Data], routeCount: Int, untranslated: [UntranslatedPart] = []) {
        self.name = name
        self.model = model
        self.files = files
        self.routeCount = routeCount
        self.untranslated = untranslated
    }

    /// A scenario of `routes` (each a route mapping), with `fixtures` beside it.
    /// - Parameters:
    ///   - header: The comment `scenario.yaml` opens with, a line each, without `#`.
    ///   - random: The seed the scenario's random numbers start from, when the import drew any.
    init(name: String, description: String, model: String, header: [String], routes: [Node], fixtures: [String: Data],
         untranslated: [UntranslatedPart], random: UInt64? = nil) {
        var top: [(Node, Node)] = [
            (Node("description"), .scenarioText(description)), (Node("model"), .scenarioText(model)),
        ]
        if let random { top.append((Node("random"), .mapping(.init([(Node("seed"), Node(String(random), Tag(.int)))])))) }
        top.append((Node("network"), .mapping(.init([(Node("unmatched"), Node("connectionRefused")), (Node("routes"), .sequence(.init(routes)))]))))
        let text = Self.comment(header) + Self.comment(listing: untranslated)
            + ((try? Yams.serialize(node: .mapping(.init(top)), width: -1, allowUnicode: true)) ?? "")
        var files = fixtures
        files["scenario.yaml"] = Data(text.utf8)
        self.init(name: name, model: model, files: files, routeCount: routes.count, untranslated: untranslated)
    }

    /// `# line` for each line: the comment `scenario.yaml` opens with.
    static func comment(_ lines: [String]) -> String {
        lines.map { "# \($0)\n" }.joined()
    }

    /// The comment that lists what was not translated, each part with its place and reason; empty when nothing was.
    static func comment(listing untranslated: [UntranslatedPart]) -> String {
        untranslated.isEmpty ? "" : comment(["Not translated (\(untranslated.count)):"] + untranslated.map { "  \($0.source): \($0.reason)" })
    }

    /// Writes the scenario as `root/NAME` once it passes the offline check a daemon's load would make (with
    /// ``model`` taken as known): first into a scratch directory, checked there, then all at once into `root`, so a
    /// failed import writes nothing.
    /// - Returns: the new scenario directory.
    /// - Throws: ``ImportCheckFailure`` when the scenario would not load (a fault of the importer: please report it);
    ///   `CocoaError(.fileWriteFileExists)` when `root/NAME` exists; file system errors otherwise.
    public func write(into root: URL) throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("scenarioctl-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let draft = try ScenarioDirectoryWriter.write(files, as: name, into: scratch)
        let problems = ScenarioCatalog.check([draft], models: [model]).problems
        guard problems.isEmpty else { throw ImportCheckFailure(problems: problems.map { "\($0.message)\($0.line.map { " (scenario.yaml line \($0))" } ?? "")" }) }
        return try ScenarioDirectoryWriter.write(files, as: name, into: root)
    }
}

/// An imported scenario that would not load: the importer wrote something the format refuses.
public struct ImportCheckFailure: Error, Sendable, CustomStringConvertible {
    /// What the offline check found.
    public var problems: [String]

    public var description: String {
        "the imported scenario does not pass the offline check, so nothing was written (a fault of the importer; please report it with the input): "
            + problems.joined(separator: "; ")
    }
}

/// A part of an imported source left out of the scenario, and why: nothing is dropped silently.
public struct UntranslatedPart: Sendable, Hashable, Codable {
    /// Where it was: a file, and a JSON pointer inside it when there is one (`mappings/todo.json /response/fault`).
    public var source: String
    /// Why it could not be translated, and what to do instead when there is something.
    public var reason: String

    /// A part at `source`, left out for `reason`.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }
}
