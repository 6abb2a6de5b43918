import Fakes
public import Foundation
import Services
import Yams

/// A session saved as a new scenario that starts where the session stands: it extends the session's scenario (so
/// its routes, fixtures and settings are that scenario's), with the session's key-value state as its seed, its
/// virtual time as its clock's start and its schedule seed.
public struct SavedScenario: Sendable {
    /// The new scenario's name (its directory's).
    public let name: String
    /// Paths in the scenario directory and their bytes: only `scenario.yaml`.
    public let files: [String: Data]

    /// The scenario `name`, extending `source`, that starts where session `session` stands at `now`.
    /// - Parameters:
    ///   - name: The new scenario's name.
    ///   - source: The scenario the session runs.
    ///   - session: The session's id, for the file's comment.
    ///   - now: The session's virtual time.
    ///   - keyValues: The session's key-value state: JSON bytes (or text) by key.
    ///   - description: The new scenario's description; one saying where it came from when nil.
    public init(name: String, source: Scenario, session: String, now: Date, keyValues: [String: Data], description: String?) {
        self.name = name
        let instant = InstantText.format(now)
        // A seed merges over the parent's by key, which would bring back a key the session removed: then it replaces.
        let inherits = Set(source.seed.keys).isSubset(of: keyValues.keys)
        var keyValue: [(Node, Node)] = []
        if !inherits { keyValue.append(("inheritSeed", Node("false", Tag(.bool)))) }
        keyValue.append(("seed", .mapping(.init(keyValues.keys.sorted().map { key in
            let data = keyValues[key]!
            return (Node.scenarioText(key), Node.scenarioValue((try? JSONValue(json: data)) ?? .string(String(decoding: data, as: UTF8.self))))
        }))))
        var clock: [(Node, Node)] = [(Node("start"), Node(instant)), (Node("mode"), Node(source.clock.mode == .system ? "frozen" : source.clock.mode.rawValue))]
        if let zone = source.clock.timeZone { clock.append((Node("timeZone"), Node(zone))) }
        var top: [(Node, Node)] = [
            ("description", Node.scenarioText(description ?? "Saved from session '\(session)' of '\(source.name)' at \(instant).")),
            ("extends", Node.scenarioText(source.name)),
            ("clock", .mapping(.init(clock))),
            ("keyValue", .mapping(.init(keyValue))),
        ]
        // The order the session gave simultaneous work, which an override (explore's, for one) may have chosen.
        if let seed = source.scheduleSeed { top.append(("schedule", .mapping(.init([(Node("seed"), Node(String(seed), Tag(.int)))])))) }
        let header = """
        # Saved by scenariod from session '\(session)' of '\(source.name)' at its virtual time \(instant): the session's
        # key-value state is the seed and its time the clock's start; routes and everything else are '\(source.name)''s.

        """
        let body = (try? Yams.serialize(node: .mapping(.init(top)), width: -1, allowUnicode: true)) ?? ""
        files = [ScenarioCatalog.fileName: Data((header + body).utf8)]
    }

    /// Writes the scenario as `root/NAME`, all at once: into a hidden directory first, renamed when complete, so a
    /// reload never sees half a scenario.
    /// - Returns: the new scenario directory.
    /// - Throws: `CocoaError(.fileWriteFileExists)` when `root/NAME` exists; file system errors otherwise.
    public func write(into root: URL) throws -> URL {
        try ScenarioDirectoryWriter.write(files, as: name, into: root)
    }
}
