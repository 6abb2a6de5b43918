import Foundation
public import Services

/// What an exploration did and found; `scenarioctl explore --json` prints it, ``text`` is its table for people.
///
/// Everything but ``seconds`` and ``stepsPerSecond`` is the same for the same seed, whatever the parallelism and
/// whether the daemon runs in the test's process or behind a socket.
public struct ExploreReport: Sendable, Hashable, Codable {
    /// A property and how often walks checked it.
    public struct PropertyCount: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// `always`, `never`, `eventually` or `builtIn`.
        public var kind: String
        /// How many times it was checked.
        public var checks: Int
    }

    /// The first failing walk, shrunk.
    public struct Failure: Sendable, Hashable, Codable {
        /// Which walk failed, counted from 0; with the report's seed it names the walk.
        public var walk: Int
        /// The property it broke, where, and what was found.
        public var property: PropertyFailure
        /// How many steps the walk took up to the failure before it was shrunk.
        public var originalSteps: Int
        /// What the walk's session was opened with besides its scenario, its schedule seed above all: the steps
        /// reproduce the failure in a session opened with these (nil: none).
        public var overrides: JSONValue?
        /// The shrunk walk: every step up to and including the failing one.
        public var steps: [WalkStep]
        /// How many replays the shrink took.
        public var shrinkRuns: Int
        /// Wall-clock seconds the shrink took.
        public var shrinkSeconds: Double
        /// How the failing step changed the state: `/unread: 0 → -1`.
        public var stateDifference: [String]
        /// The walk file written for `scenarioctl play`, when one was.
        public var walkFile: String?
        /// The scenario the failing session was saved as, when asked.
        public var savedScenario: String?
        /// Why the failing session could not be saved as a scenario, when it was asked and could not.
        public var notSaved: String?
    }

    /// The scenario explored.
    public var scenario: String
    /// Its Model.
    public var model: String
    /// The seed every walk's steps derive from.
    public var seed: UInt64
    /// Walks asked for, and walks run (fewer when one failed: the walks after it are not counted).
    public var walks: Int
    /// Walks run.
    public var walksRun: Int
    /// Steps per walk asked for.
    public var stepsPerWalk: Int
    /// Steps taken in all counted walks, not counting replays and shrinks.
    public var steps: Int
    /// Steps the daemon refused (a 4xx: arguments the Model rejected), which changed nothing.
    public var refusedSteps: Int
    /// Steps of each kind: `action NAME`, `clock`, `network`, `route`, `keyValue`, `stream`.
    public var stepKinds: [String: Int]
    /// Requests each route answered, over all counted walks.
    public var routes: [String: Int]
    /// Routes no walk's request reached.
    public var routesNeverRequested: [String]
    /// Every property and its checks.
    public var properties: [PropertyCount]
    /// The first failing walk, shrunk; nil when every walk kept every property.
    public var failure: Failure?
    /// Wall-clock seconds the walks took (their replays included, the shrink not: see ``Failure/shrinkSeconds``).
    public var seconds: Double
    /// Walk steps per wall-clock second of walking, replays not counted as steps.
    public var stepsPerSecond: Double

    /// The report with its wall-clock figures zeroed: what two runs of one seed must agree on.
    public var withoutTimings: ExploreReport {
        var report = self
        report.seconds = 0
        report.stepsPerSecond = 0
        report.failure?.shrinkSeconds = 0
        report.failure?.walkFile = nil
        report.failure?.savedScenario = nil
        report.failure?.notSaved = nil
        return report
    }

    /// The summary as people read it: what ran, what was reached, then the failure with its minimal walk.
    public var text: String {
        var lines: [String] = []
        lines.append("explored \(scenario) (\(model)), seed \(seed): \(walksRun) of \(walks) walks, \(steps) steps "
            + "in \(String(format: "%.2f", seconds)) s (\(Int(stepsPerSecond.rounded())) steps/s)"
            + (refusedSteps > 0 ? ", \(refusedSteps) refused" : ""))
        lines.append("")
        lines.append("STEPS")
        for (kind, count) in stepKinds.sorted(by: { $0.key < $1.key }) { lines.append("  \(kind.padding(toLength: 28, withPad: " ", startingAt: 0)) \(count)") }
        lines.append("ROUTES")
        if routes.isEmpty { lines.append("  (the scenario has no routes)") }
        for (route, count) in routes.sorted(by: { $0.key < $1.key }) { lines.append("  \(route.padding(toLength: 28, withPad: " ", startingAt: 0)) \(count)") }
        if !routesNeverRequested.isEmpty { lines.append("  never requested: \(routesNeverRequested.joined(separator: ", "))") }
        lines.append("PROPERTIES")
        for property in properties {
            lines.append("  \(property.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(property.kind.padding(toLength: 10, withPad: " ", startingAt: 0)) \(property.checks) checks")
        }
        lines.append("")
        guard let failure else {
            lines.append("every property held in every walk.")
            return lines.joined(separator: "\n")
        }
        lines.append("FAILED: \(failure.property.property)\(failure.property.place.map { " (\($0))" } ?? "") in walk \(failure.walk), "
            + "after step \(failure.property.step): \(failure.property.detail)")
        lines.append("minimal walk: \(failure.steps.count) step\(failure.steps.count == 1 ? "" : "s") (from \(failure.originalSteps), "
            + "shrunk in \(failure.shrinkRuns) replays, \(String(format: "%.2f", failure.shrinkSeconds)) s)")
        // What the steps depend on comes first, so typing them in that session reproduces the failure.
        if let seed = failure.overrides?.value(at: "/schedule/seed") {
            lines.append("  in a session of \(scenario) with schedule seed \(String(decoding: seed.jsonData, as: UTF8.self))")
        }
        if let overrides = failure.overrides, case .object(var rest) = overrides {
            if case .object(var schedule)? = rest["schedule"] {
                schedule["seed"] = nil
                rest["schedule"] = schedule.isEmpty ? nil : .object(schedule)
            }
            if !rest.isEmpty { lines.append("  with overrides \(String(decoding: JSONValue.object(rest).jsonData, as: UTF8.self))") }
        }
        for (index, step) in failure.steps.enumerated() { lines.append("  \(index + 1). \(step.summary)") }
        if !failure.stateDifference.isEmpty {
            lines.append("the state at step \(failure.property.step):")
            lines += failure.stateDifference.map { "  \($0)" }
        }
        if let file = failure.walkFile { lines.append("replay it: scenarioctl play \(file)") }
        if let saved = failure.savedScenario { lines.append("saved the failing session as scenario \(saved)") }
        if let reason = failure.notSaved { lines.append("the failing session was not saved as a scenario: \(reason)") }
        return lines.joined(separator: "\n")
    }
}

extension JSONValue {
    /// Every leaf that differs between `self` (before) and `after`, as `pointer: old → new`, at most `limit`.
    func differences(to after: JSONValue, at pointer: String = "", limit: Int = 20) -> [String] {
        var lines: [String] = []
        func walk(_ a: JSONValue?, _ b: JSONValue?, _ place: String) {
            guard lines.count < limit else { return }
            switch (a, b) {
            case (.object(let x)?, .object(let y)?):
                for key in Set(x.keys).union(y.keys).sorted() { walk(x[key], y[key], place + "/" + JSONValue.pointerToken(key)) }
            case (.array(let x)?, .array(let y)?):
                for index in 0..<max(x.count, y.count) { walk(index < x.count ? x[index] : nil, index < y.count ? y[index] : nil, "\(place)/\(index)") }
            default:
                if let a, let b, a.firstMismatch(with: b) == nil { return }
                let shown = { (value: JSONValue?) in value.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? "(none)" }
                lines.append("\(place.isEmpty ? "/" : place): \(shown(a)) → \(shown(b))")
            }
        }
        walk(self, after, pointer)
        return lines
    }
}
