public import Foundation
public import Services

/// A walk written down: `scenarioctl explore` writes the minimal failing walk as one, `scenarioctl play` replays it
/// (and ``Explorer/play(_:keep:)`` in a test). JSON, so a person can read, edit and keep it beside a test.
public struct WalkFile: Sendable, Hashable, Codable {
    /// The scenario the walk runs.
    public var scenario: String
    /// The session's overrides, the schedule seed that ordered its simultaneous work among them.
    public var overrides: JSONValue?
    /// The properties file the walk was checked against, when it was not the scenario's own.
    public var properties: String?
    /// The exploration's seed and the walk's number, to find it again.
    public var seed: UInt64
    /// The walk's number in that exploration.
    public var walk: Int
    /// What the walk broke when it was written; a replay that breaks it again reproduces it.
    public var failure: PropertyFailure?
    /// The steps, in order.
    public var steps: [WalkStep]

    /// A walk file with these parts.
    public init(scenario: String, overrides: JSONValue?, properties: String?, seed: UInt64, walk: Int,
                failure: PropertyFailure?, steps: [WalkStep]) {
        self.scenario = scenario
        self.overrides = overrides
        self.properties = properties
        self.seed = seed
        self.walk = walk
        self.failure = failure
        self.steps = steps
    }

    /// The minimal failing walk of an exploration's report: what `scenarioctl explore` writes for `scenarioctl play`.
    /// - Parameters:
    ///   - failure: The report's failure.
    ///   - scenario: The scenario explored.
    ///   - seed: The exploration's seed.
    ///   - properties: The properties file it was checked against, when not the scenario's own.
    public init(failure: ExploreReport.Failure, scenario: String, seed: UInt64, properties: String?) {
        self.init(scenario: scenario, overrides: failure.overrides, properties: properties, seed: seed, walk: failure.walk,
                  failure: failure.property, steps: failure.steps)
    }

    /// Reads a walk file.
    /// - Throws: ``ExploreError`` saying which file and what is wrong with it.
    public static func read(from url: URL) throws -> WalkFile {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ExploreError("cannot read the walk file \(url.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(WalkFile.self, from: data)
        } catch let error as DecodingError {
            throw ExploreError("\(url.path) is not a walk file: \(Self.sentence(error))")
        }
    }

    /// Writes the walk as indented JSON with sorted keys.
    /// - Throws: ``ExploreError`` saying which file could not be written and why.
    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { try encoder.encode(self).write(to: url, options: .atomic) } catch {
            throw ExploreError("cannot write the walk file \(url.path): \(error.localizedDescription)")
        }
    }

    private static func sentence(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// Why an exploration or a replay cannot run: a properties file with problems, a scenario or walk file that is
/// not there. Says what and where.
public struct ExploreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String
    /// An error with this description.
    public init(_ description: String) { self.description = description }
}
