import ControlAPI
public import Foundation
import Fakes
public import ScenarioClient
import ScenarioFormat
public import Services

/// What an exploration does: how many walks of how many steps, from which seed, checked against what.
public struct ExploreOptions: Sendable {
    /// Walks to run.
    public var walks: Int
    /// Steps per walk.
    public var steps: Int
    /// The seed every walk derives from; the same seed walks the same steps.
    public var seed: UInt64
    /// Walks run at once, each in its own session; the report does not depend on it.
    public var parallelism: Int
    /// A properties file to check instead of the scenario's own `properties.yaml`.
    public var propertiesFile: URL?
    /// The properties file's text, when it was read elsewhere (a daemon gets it from its client): read instead of
    /// ``propertiesFile``, which then only names it.
    public var propertiesText: String?
    /// Properties written in Swift, checked beside the file's.
    public var properties: [WalkProperty]
    /// Scenario sections every walk's session overrides, as for `POST /v1/sessions`.
    public var overrides: JSONValue?
    /// The most replays a shrink may make.
    public var shrinkBudget: Int
    /// Where to write the minimal failing walk for `scenarioctl play`; nil writes none.
    public var walkFile: URL?
    /// A scenario name to save the failing session as (`POST …/save`); nil saves none.
    public var saveFailureAs: String?

    /// Options for `walks` walks of `steps` steps from `seed`.
    public init(walks: Int = 100, steps: Int = 20, seed: UInt64 = 1,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, propertiesFile: URL? = nil,
                properties: [WalkProperty] = [], overrides: JSONValue? = nil, shrinkBudget: Int = 300,
                walkFile: URL? = nil, saveFailureAs: String? = nil) {
        self.walks = walks
        self.steps = steps
        self.seed = seed
        self.parallelism = max(1, parallelism)
        self.propertiesFile = propertiesFile
        self.properties = properties
        self.overrides = overrides
        self.shrinkBudget = shrinkBudget
        self.walkFile = walkFile
        self.saveFailureAs = saveFailureAs
    }
}

/// How far an exploration has come, for a progress line.
public struct ExploreProgress: Sendable, Hashable, Codable {
    /// Walks finished and asked for.
    public var walksDone: Int
    /// Walks asked for.
    public var walks: Int
    /// Steps taken so far.
    public var steps: Int
    /// Whether a failing walk is being shrunk.
    public var shrinking: Bool

    /// Progress of `walksDone` of `walks` walks, `steps` steps taken.
    public init(walksDone: Int, walks: Int, steps: Int, shrinking: Bool) {
        self.walksDone = walksDone
        self.walks = walks
        self.steps = steps
        self.shrinking = shrinking
    }
}

/// Explores a scenario: seeded walks of the Model's actions, clock moves, network weather and key-value edits, each
/// in a session of its own, every property checked after every step; the first failing walk shrunk to a minimal one.
/// Runs over any ``/ScenarioClient/ControlClient``: a daemon's socket, or ScenarioTesting's daemon in the test's process,
/// whose walks can run straight on its engine (a ``WalkTarget`` of its own).
public struct Explorer: Sendable {
    /// The daemon's client: it describes the scenario and the Model.
    public let client: ControlClient
    /// Where the walks' sessions run: the client's daemon, reached through the client or straight on its engine.
    public let target: any WalkTarget
    /// The scenario to explore.
    public let scenario: String
    /// What to run.
    public let options: ExploreOptions
    /// Unique per explorer, so two explorations of one daemon never share a session id.
    private let sessionPrefix = "explore-\(UUID().uuidString.prefix(8).lowercased())"

    /// An explorer of `scenario` through `client`, its walks run on `target` (by default through `client` too).
    public init(client: ControlClient, target: (any WalkTarget)? = nil, scenario: String, options: ExploreOptions = ExploreOptions()) {
        self.client = client
        self.target = target ?? client
        self.scenario = scenario
        self.options = options
    }

    /// Runs the walks and returns the report; a failure is in the report, not thrown.
    /// - Throws: ``ExploreError`` when the scenario or its properties file cannot be used, or the client's error
    ///   when the daemon cannot be reached.
    public func run(progress: (@Sendable (ExploreProgress) -> Void)? = nil) async throws -> ExploreReport {
        guard options.walks >= 1, options.steps >= 1 else {
            throw ExploreError("an exploration needs at least one walk of at least one step; got \(options.walks) of \(options.steps)")
        }
        let started = ContinuousClock.now
        let (detail, model, settings) = try await context(of: scenario, propertiesFile: options.propertiesFile)
        // Outcomes are counted in walk order as soon as every walk before them is in, and then dropped: an
        // exploration of a million walks in a daemon holds the few that ran out of order, not them all.
        var tally = ExploreTally(routes: detail.routes.map(\.name))
        var waiting: [Int: WalkRunner.Outcome] = [:]
        var failing: (walk: Int, outcome: WalkRunner.Outcome)?
        var stepsSoFar = 0
        var finishedWalks = 0
        let routes = detail.routes.filter { $0.live != true }
        let routeNames = routes.map(\.name)
        let streams = routes.contains { $0.answers.contains { $0.streams != nil } }
        try await withThrowingTaskGroup(of: (Int, WalkRunner.Outcome).self) { group in
            var next = 0
            func launch(_ walk: Int) {
                let runner = runner(model: model, settings: settings, overrides: overrides(walk: walk))
                group.addTask { (walk, try await runWalk(walk, runner: runner, generator: StepGenerator(
                    model: model, settings: settings, routes: routeNames, streams: streams, seed: seed(walk: walk)))) }
            }
            while next < min(options.parallelism, options.walks) { launch(next); next += 1 }
            while let (walk, outcome) = try await group.next() {
                finishedWalks += 1
                stepsSoFar += outcome.steps.count
                waiting[walk] = outcome
                // Walks after a failing one are not counted, so the report is the same however many run at once.
                while failing == nil, let due = waiting.removeValue(forKey: tally.walks) {
                    if due.failure != nil { failing = (tally.walks, due) }
                    tally.add(due)
                }
                progress?(ExploreProgress(walksDone: finishedWalks, walks: options.walks, steps: stepsSoFar, shrinking: false))
                // Walks after a failing one are not started.
                let firstFailure = failing?.walk ?? waiting.filter { $0.value.failure != nil }.keys.min() ?? .max
                if next < options.walks, next < firstFailure { launch(next); next += 1 }
            }
        }
        var report = tally.report(scenario: scenario, model: model, settings: settings, options: options)
        let walked = ContinuousClock.now
        // The speed is the walks' alone: shrinking replays one walk many times, one at a time.
        report.seconds = (walked - started).seconds
        report.stepsPerSecond = report.seconds > 0 ? Double(report.steps) / report.seconds : 0
        if let (walk, outcome) = failing, let failure = outcome.failure {
            progress?(ExploreProgress(walksDone: tally.walks, walks: options.walks, steps: report.steps, shrinking: true))
            report.failure = try await shrink(walk: walk, outcome: outcome, failure: failure, model: model, settings: settings)
            report.failure?.shrinkSeconds = (ContinuousClock.now - walked).seconds
        }
        return report
    }

    /// Replays a walk file in a new session, checking the same properties, and returns the failure, if any. The
    /// walk's scenario is used, whatever this explorer's is.
    /// - Parameters:
    ///   - walk: The walk to replay; its scenario, overrides and properties file are used.
    ///   - keep: Leave the session open afterwards (its id is `walk-…`), to look at it.
    public func play(_ walk: WalkFile, keep: Bool = false) async throws -> (session: String, steps: [WalkStep], failure: PropertyFailure?) {
        let (_, model, settings) = try await context(of: walk.scenario, propertiesFile: walk.properties.map { URL(fileURLWithPath: $0) })
        let runner = WalkRunner(target: target, scenario: walk.scenario, overrides: walk.overrides, model: model,
                                settings: settings, closures: options.properties)
        let id = "walk-\(UUID().uuidString.prefix(8).lowercased())"
        var outcome = try await runner.run(id: id, steps: .given(walk.steps), keep: keep)
        // As explore checks every walk: a walk written for a replay that differed reproduces that failure.
        if outcome.failure == nil { try await checkReplay(of: &outcome, runner: runner, id: "\(id)-replay") }
        return (id, outcome.steps, outcome.failure)
    }

    // MARK: Parts

    /// The scenario's description, its Model's, and the properties to check (the file given, else the scenario's own).
    private func context(of scenario: String, propertiesFile: URL?) async throws -> (ScenarioDetail, ModelDescription, PropertiesFile) {
        let detail: ScenarioDetail
        do {
            detail = try await client.scenario(scenario)
        } catch let error as ScenarioClientError where error.code != nil {
            throw ExploreError("cannot explore scenario '\(scenario)': \(error)")
        }
        guard let model = try await client.models().first(where: { $0.name == detail.model }) else {
            throw ExploreError("the daemon does not describe Model \(detail.model), which scenario \(scenario) runs")
        }
        let ownFile = URL(fileURLWithPath: detail.directory).appendingPathComponent(PropertiesFile.fileName)
        let file = propertiesFile ?? (FileManager.default.fileExists(atPath: ownFile.path) ? ownFile : nil)
        guard let file else { return (detail, model, PropertiesFile()) }
        do {
            if let text = options.propertiesText, propertiesFile != nil {
                return (detail, model, try PropertiesFile.parse(text, file: file.path, model: model))
            }
            return (detail, model, try PropertiesFile.load(from: file, model: model))
        } catch {
            throw ExploreError(error.summary)
        }
    }

    private func runner(model: ModelDescription, settings: PropertiesFile, overrides: JSONValue?) -> WalkRunner {
        WalkRunner(target: target, scenario: scenario, overrides: overrides, model: model, settings: settings, closures: options.properties)
    }

    /// The seed walk `walk` draws its steps from.
    private func seed(walk: Int) -> UInt64 {
        SeededRandom(seed: options.seed &+ UInt64(walk) &* 0x9E37_79B9_7F4A_7C15).next()
    }

    /// The options' overrides, with a schedule seed of the walk's own, so walks try different orders of the work
    /// that is ready at once (unless the overrides fix one).
    private func overrides(walk: Int) -> JSONValue {
        guard !fixesScheduleSeed else { return options.overrides ?? [:] }
        return WalkShrinker.overrides(options.overrides, scheduleSeed: Int(seed(walk: walk) % 1_000_000_007))
    }

    /// Whether the options' overrides fix the schedule seed, which walks and shrinks then keep.
    private var fixesScheduleSeed: Bool { options.overrides?.value(at: "/schedule") != nil }

    /// One walk, then (when it held) its replay in a new session, whose state must be the same bytes.
    private func runWalk(_ walk: Int, runner: WalkRunner, generator: StepGenerator) async throws -> WalkRunner.Outcome {
        var outcome = try await runner.run(id: "\(sessionPrefix)-\(walk)", steps: .drawn(generator, count: options.steps))
        guard outcome.failure == nil else { return outcome }
        try await checkReplay(of: &outcome, runner: runner, id: "\(sessionPrefix)-\(walk)-replay")
        return outcome
    }

    /// Runs the steps of `outcome`, a walk that kept every property, again in a new session `id`; when that ends in
    /// another state, the walk fails ``BuiltInProperty/replayIsIdentical``.
    private func checkReplay(of outcome: inout WalkRunner.Outcome, runner: WalkRunner, id: String) async throws {
        let replay = try await runner.run(id: id, steps: .given(outcome.steps), checking: .nothing)
        outcome.checks[BuiltInProperty.replayIsIdentical.rawValue, default: 0] += 1
        if !replay.finalState.encodesAsSameBytes(as: outcome.finalState) {
            let mismatch = outcome.finalState.firstMismatch(with: replay.finalState).map { "\($0)" } ?? "the bytes differ"
            outcome.failure = PropertyFailure(property: BuiltInProperty.replayIsIdentical.rawValue, step: outcome.steps.count,
                                              detail: "replayed, the walk ends in another state: \(mismatch) (walk against replay)")
            outcome.failingStates = (outcome.finalState, replay.finalState)
        }
    }

    /// Shrinks the failing walk, writes it for `scenarioctl play` and saves its session as a scenario when asked.
    private func shrink(walk: Int, outcome: WalkRunner.Outcome, failure: PropertyFailure, model: ModelDescription,
                        settings: PropertiesFile) async throws -> ExploreReport.Failure {
        var runner = runner(model: model, settings: settings, overrides: overrides(walk: walk))
        var minimal = (steps: outcome.steps, outcome: outcome, overrides: runner.overrides, tries: 0)
        // A replay that differs is a property of two runs, which one replay cannot re-check: it is reported whole.
        if failure.property != BuiltInProperty.replayIsIdentical.rawValue {
            let prefix = sessionPrefix
            let shrinker = WalkShrinker(runner: runner, mayReseed: !fixesScheduleSeed,
                                        property: failure.property, budget: options.shrinkBudget, sessionID: { "\(prefix)-shrink-\($0)" })
            minimal = try await shrinker.shrink(outcome.steps, outcome: outcome)
            runner.overrides = minimal.overrides
        }
        let found = minimal.outcome.failure ?? failure
        let states = minimal.outcome.failingStates ?? (.null, .null)
        var report = ExploreReport.Failure(walk: walk, property: found, originalSteps: outcome.steps.count, overrides: runner.overrides,
                                           steps: minimal.steps, shrinkRuns: minimal.tries, shrinkSeconds: 0,
                                           stateDifference: states.before.differences(to: states.after),
                                           walkFile: nil, savedScenario: nil, notSaved: nil)
        if let url = options.walkFile {
            try WalkFile(failure: report, scenario: scenario, seed: options.seed, properties: options.propertiesFile?.path).write(to: url)
            report.walkFile = url.path
        }
        if let name = options.saveFailureAs {
            let id = "\(sessionPrefix)-save"
            _ = try await runner.run(id: id, steps: .given(minimal.steps), keep: true)
            // A session the daemon cannot save (one left in bad network weather, say) is said in the report, which
            // stands without it.
            do {
                report.savedScenario = try await target.saveSession(id, as: name, description: "explore found \(found.property) broken "
                    + "after step \(found.step) (seed \(options.seed), walk \(walk))")
            } catch let error as ScenarioClientError where error.code != nil {
                report.notSaved = error.description
            }
            try? await target.deleteSession(id)
        }
        return report
    }
}
