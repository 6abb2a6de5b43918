import ArgumentParser
import Foundation
import ScenarioClient
import ScenarioExplore
import Services
import Synchronization
import UnixSignals

struct Explore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Walk a scenario's Model through seeded random steps, checking properties after each; shrink a failure.",
        discussion: """
        Each walk runs in a session of its own: the Model's actions (arguments drawn from its description, the \
        state and the properties file's examples), clock moves, network and route weather, the key-value edits the \
        properties file allows and, where routes stream, the end of an open stream. Built in: no modelEscaped, no 5xx, no unanswered request (with fullCoverage: true), \
        and a replay of each walk ends in byte-identical state. The scenario's properties.yaml adds checks. \
        The first failing walk is shrunk to a minimal one and written to --walk-file for `scenarioctl play`. \
        The same seed gives the same report, whatever --parallel is. Exit status 1 when a property failed; \
        Ctrl-C deletes the walks' sessions and exits 130.
        """)
    @OptionGroup var options: ClientOptions
    @Argument(help: "The scenario to explore.") var scenario: String
    @Option(help: "Walks to run.") var walks = 100
    @Option(help: "Steps per walk.") var steps = 20
    @Option(help: "The seed; the same seed walks the same steps.") var seed: UInt64 = 1
    // Optional, so the help states the default once, in words: a number printed there would be this machine's.
    @Option(help: "Walks run at once (default: the number of cores).") var parallel: Int?
    @Option(help: ArgumentHelp("A properties file to check instead of the scenario's own properties.yaml.", valueName: "file"))
    var properties: String?
    @Option(help: ArgumentHelp("Where to write the minimal failing walk (default: ./explore-SCENARIO-SEED.walk.json).", valueName: "file"))
    var walkFile: String?
    @Option(help: ArgumentHelp("Also save the failing session as a scenario of this name.", valueName: "name"))
    var saveScenario: String?

    func validate() throws {
        guard walks >= 1, steps >= 1 else { throw ValidationError("--walks and --steps must be at least 1.") }
        guard parallel.map({ $0 >= 1 }) ?? true else { throw ValidationError("--parallel must be at least 1.") }
        // The daemon reads JSON integers as 64-bit signed numbers.
        guard seed <= UInt64(Int64.max) else { throw ValidationError("--seed must be at most \(Int64.max).") }
    }

    func run() async throws {
        let walkFile = URL(fileURLWithPath: walkFile ?? "explore-\(scenario)-\(seed).walk.json")
        let exploreOptions = ExploreOptions(walks: walks, steps: steps, seed: seed, parallelism: parallel ?? ProcessInfo.processInfo.activeProcessorCount,
                                            propertiesFile: properties.map { URL(fileURLWithPath: $0) }, walkFile: walkFile, saveFailureAs: saveScenario)
        let progress = ProgressLine()
        // The walks run in the daemon, at its engine's speed. Ctrl-C cancels them there; the daemon deletes their
        // sessions before it answers, so none is left.
        let client = options.client
        let work = Task { [exploreOptions, scenario] in try await client.explore(scenario, options: exploreOptions) { progress.show($0) } }
        let interrupt = Task {
            for await _ in await UnixSignalsSequence(trapping: .sigint) {
                work.cancel()
                return
            }
        }
        defer { interrupt.cancel() }
        let report: ExploreReport
        do {
            report = try await work.value
        } catch where work.isCancelled {
            progress.clear()
            FileHandle.standardError.write(Data("scenarioctl: interrupted; the exploration was cancelled and its sessions deleted.\n".utf8))
            throw ExitCode(130)
        } catch let error as ExploreError {
            progress.clear()
            FileHandle.standardError.write(Data("scenarioctl: \(error)\n".utf8))
            throw ExitCode(1)
        } catch {
            progress.clear()
            // The client's errors, said and mapped to exit statuses as every verb does.
            try await options.run { _ in throw error }
            throw error
        }
        progress.clear()
        options.output(report) { report.text }
        if report.failure != nil { throw ExitCode(1) }
    }
}

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a walk file (as `scenarioctl explore` writes one) in a new session, checking the same properties.",
        discussion: """
        Prints each step, then the property the walk broke and the state it broke it in. Exit status 1 when a \
        property failed (the walk reproduced its failure), 0 when every property held.
        """)
    @OptionGroup var options: ClientOptions
    @Argument(help: "The walk file.") var file: String
    @Flag(help: "Leave the session open afterwards, to look at it (its id is printed).") var keep = false

    func run() async throws {
        let walk: WalkFile
        do {
            walk = try WalkFile.read(from: URL(fileURLWithPath: file))
        } catch {
            FileHandle.standardError.write(Data("scenarioctl: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let explorer = Explorer(client: options.client, scenario: walk.scenario)
        let result: (session: String, steps: [WalkStep], failure: PropertyFailure?)
        do {
            result = try await options.run { _ in try await explorer.play(walk, keep: keep) }
        } catch let error as ExploreError {
            FileHandle.standardError.write(Data("scenarioctl: \(error)\n".utf8))
            throw ExitCode(1)
        }
        options.output(PlayBody(session: keep ? result.session : nil, steps: result.steps, failure: result.failure)) {
            var lines = result.steps.enumerated().map { "\($0.offset + 1). \($0.element.summary)" }
            if let failure = result.failure {
                lines.append("FAILED: \(failure.property)\(failure.place.map { " (\($0))" } ?? "") after step \(failure.step): \(failure.detail)")
            } else {
                lines.append("every property held.")
            }
            if keep { lines.append("session \(result.session) is open: scenarioctl state --session \(result.session)") }
            return lines.joined(separator: "\n")
        }
        if result.failure != nil { throw ExitCode(1) }
    }

    /// `scenarioctl play --json`.
    struct PlayBody: Encodable {
        var session: String?
        var steps: [WalkStep]
        var failure: PropertyFailure?
    }
}

/// `walk 37/200, 740 steps` on a terminal's standard error, redrawn in place, once a run has taken a second.
final class ProgressLine: Sendable {
    private let started = ContinuousClock.now
    private let shown = Mutex(false)
    private let isTerminal = isatty(STDERR_FILENO) == 1

    func show(_ progress: ExploreProgress) {
        guard isTerminal, ContinuousClock.now - started > .seconds(1) else { return }
        let text = progress.shrinking ? "shrinking the failing walk…" : "walk \(progress.walksDone)/\(progress.walks), \(progress.steps) steps"
        shown.withCheckedLock { $0 = true }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func clear() {
        if shown.withCheckedLock({ $0 }) { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
