import ScenarioFormat
import Services

/// Shrinks a failing walk to a shorter one that fails the same property: drops runs of steps (halving their length,
/// as delta debugging does), joins neighbouring clock moves, shortens moves and simplifies arguments, until no change
/// helps or the budget of runs is spent. Then, when the walk's schedule seed is its own, it tries each step's removal
/// under a few other seeds: a bug of simultaneous work may need fewer steps under another order. Written here rather than taken from a property-testing library because each
/// try is a walk replayed in a session of the daemon, not a value a generator can shrink in memory.
struct WalkShrinker {
    var runner: WalkRunner
    /// Whether the schedule seed may change (it may not when the explorer's overrides fix one).
    let mayReseed: Bool
    /// The property the shrunk walk must still fail.
    let property: String
    /// The most walks a shrink replays.
    let budget: Int
    /// A fresh session id for each try.
    let sessionID: @Sendable (Int) -> String

    /// The shortest failing walk found, and its outcome.
    func shrink(_ steps: [WalkStep], outcome: WalkRunner.Outcome)
    async throws -> (steps: [WalkStep], outcome: WalkRunner.Outcome, overrides: JSONValue?, tries: Int) {
        var best = (steps: steps, outcome: outcome)
        var runner = runner
        var tries = 0

        /// Replays `candidate`; keeps it (cut after its failing step) when it fails the same property.
        func attempt(_ candidate: [WalkStep], with other: WalkRunner? = nil) async throws -> Bool {
            guard tries < budget, candidate != best.steps else { return false }
            tries += 1
            let result = try await (other ?? runner).run(id: sessionID(tries), steps: .given(candidate))
            guard result.failure?.property == property else { return false }
            best = (result.steps, result)
            if let other { runner = other }
            return true
        }

        var improved = true
        while improved, tries < budget {
            improved = false
            // Runs of steps, from half the walk down to one.
            var chunk = max(1, best.steps.count / 2)
            while chunk >= 1, tries < budget {
                var start = 0
                var removedAny = false
                while start < best.steps.count, tries < budget {
                    var candidate = best.steps
                    candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                    if try await attempt(candidate) { removedAny = true; improved = true } else { start += chunk }
                }
                if !removedAny { chunk /= 2 }
            }
            // Neighbouring clock moves joined into one.
            var index = 0
            while index + 1 < best.steps.count, tries < budget {
                if case .advanceClock(let first) = best.steps[index], case .advanceClock(let second) = best.steps[index + 1],
                   let a = DurationText.parse(first), let b = DurationText.parse(second) {
                    var candidate = best.steps
                    candidate.replaceSubrange(index...index + 1, with: [.advanceClock(DurationText.format(a + b))])
                    if try await attempt(candidate) { improved = true; continue }
                }
                index += 1
            }
            // Each step made simpler: a shorter move, plainer arguments.
            index = 0
            while index < best.steps.count, tries < budget {
                for simpler in simplifications(of: best.steps[index]) {
                    var candidate = best.steps
                    candidate[index] = simpler
                    if try await attempt(candidate) { improved = true; break }
                }
                index += 1
            }
            // Each step dropped under another order of simultaneous work.
            guard !improved, mayReseed, best.steps.count > 1 else { continue }
            search: for index in best.steps.indices {
                for seed in 0..<Self.otherSeeds {
                    var candidate = best.steps
                    candidate.remove(at: index)
                    var reseeded = runner
                    reseeded.overrides = Self.overrides(runner.overrides, scheduleSeed: seed)
                    if reseeded.overrides != runner.overrides, try await attempt(candidate, with: reseeded) {
                        improved = true
                        break search
                    }
                }
            }
        }
        return (best.steps, best.outcome, runner.overrides, tries)
    }

    /// `pointer` with one array index made smaller, to 0 and to one less, first index first: `/a/2/b/1` gives
    /// `/a/0/b/1`, `/a/1/b/1`, `/a/2/b/0`.
    static func earlierMembers(of pointer: String) -> [String] {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var earlier: [String] = []
        for (place, token) in tokens.enumerated() {
            guard let index = Int(token), index > 0, String(index) == token else { continue }
            for smaller in Set([0, index - 1]).sorted() {
                var changed = tokens
                changed[place] = String(smaller)
                earlier.append(changed.joined(separator: "/"))
            }
        }
        return earlier
    }

    /// How many other schedule seeds a removal is tried under.
    static let otherSeeds = 8

    /// `overrides` with `schedule.seed` set to `seed`.
    static func overrides(_ overrides: JSONValue?, scheduleSeed seed: Int) -> JSONValue {
        var members: [String: JSONValue] = if case .object(let given)? = overrides { given } else { [:] }
        members["schedule"] = ["seed": .int(seed)]
        return .object(members)
    }

    /// Simpler forms of a step: shorter clock moves; an action with one argument plainer — an earlier example where
    /// the properties file gives examples (a walk stays within them), an earlier member where it was taken from the
    /// state (`/bookings/0/id` for `/bookings/2/id`, so the steps that made the later member can go), else a number
    /// at 0 or a boolean false.
    func simplifications(of step: WalkStep) -> [WalkStep] {
        switch step {
        case .advanceClock(let text):
            guard let duration = DurationText.parse(text) else { return [] }
            return StepGenerator.clockMoves.filter { (DurationText.parse($0) ?? duration) < duration }.map(WalkStep.advanceClock)
        case .action(let name, .object(let arguments), let from):
            var simpler: [WalkStep] = []
            for key in from.keys.sorted() {
                for pointer in Self.earlierMembers(of: from[key]!) {
                    var moved = from
                    moved[key] = pointer
                    simpler.append(.action(name: name, arguments: .object(arguments), from: moved))
                }
            }
            for key in arguments.keys.sorted() where from[key] == nil {
                let plainer: [JSONValue]
                if let examples = runner.settings.arguments[name]?[key] {
                    plainer = Array(examples.prefix { $0 != arguments[key] })
                } else {
                    plainer = switch arguments[key] {
                    case .int(let value) where value != 0: [.int(0)]
                    case .double(let value) where value != 0: [.int(0)]
                    case .bool(true): [.bool(false)]
                    default: []
                    }
                }
                for plain in plainer {
                    var changed = arguments
                    changed[key] = plain
                    simpler.append(.action(name: name, arguments: .object(changed), from: from))
                }
            }
            return simpler
        default:
            return []
        }
    }
}
