import ControlAPI
import Foundation
import ScenarioClient
import ScenarioFormat
import Services

/// Runs one walk in a session of its own: each step on the walk's target, then every property checked.
struct WalkRunner: Sendable {
    let target: any WalkTarget
    let scenario: String
    var overrides: JSONValue?
    let model: ModelDescription
    let settings: PropertiesFile
    let closures: [WalkProperty]

    /// Where the steps come from: drawn as the walk goes (they depend on the state), or given (a replay, a shrink).
    enum Steps {
        case drawn(StepGenerator, count: Int)
        case given([WalkStep])
    }

    /// What a walk did and found.
    struct Outcome: Sendable {
        /// The steps taken, the failing one last when one failed.
        var steps: [WalkStep] = []
        var failure: PropertyFailure?
        /// The state before and after the failing step.
        var failingStates: (before: JSONValue, after: JSONValue)?
        /// How many times each property was checked.
        var checks: [String: Int] = [:]
        /// Requests each route answered.
        var routes: [String: Int] = [:]
        /// Steps the daemon refused (a 4xx), which change nothing.
        var refused = 0
        /// Requests that matched no route.
        var unanswered = 0
        /// The state after the last step (before the clock moves on to the deadlines still pending).
        var finalState: JSONValue = .null
    }

    /// What a run checks.
    enum Checking {
        /// Every property after every step; whether a request went unanswered once, at the end (when one did, the
        /// walk is run again with ``unansweredAtEveryStep`` to find the step).
        case everyStep
        /// Also whether a request went unanswered, after every step.
        case unansweredAtEveryStep
        /// Nothing: the steps and the final state, for a replay.
        case nothing
    }

    /// An `eventually` property waiting for its condition.
    private struct Obligation {
        var property: PropertiesFile.Property
        var deadline: Date
        var within: Duration
        var step: Int
    }

    /// Runs the walk in a new session `id`, deleted afterwards unless `keep`.
    func run(id: String, steps: Steps, keep: Bool = false, checking: Checking = .everyStep) async throws -> Outcome {
        let session: any WalkSession
        do {
            session = try await target.openSession(scenario: scenario, id: id, overrides: overrides)
        } catch where Task.isCancelled {
            // Cancelled (Ctrl-C) with the request sent: the daemon may have made the session all the same, and no
            // one else knows its id. Deleted in a task of its own, which the cancellation does not reach.
            let target = target
            await Task { try? await target.deleteSession(id) }.value
            throw error
        }
        let outcome: Outcome
        do {
            outcome = try await walk(session: session, steps: steps, checking: checking)
            if !keep { try await session.delete() }
        } catch {
            // In a task of its own: a walk stopped by cancellation (Ctrl-C) still deletes its session.
            await Task { try? await session.delete() }.value
            throw error
        }
        if checking == .everyStep, outcome.failure == nil, outcome.unanswered > 0 {
            return try await run(id: id + "-find", steps: .given(outcome.steps), keep: keep, checking: .unansweredAtEveryStep)
        }
        return outcome
    }

    private func walk(session: any WalkSession, steps: Steps, checking: Checking) async throws -> Outcome {
        var outcome = Outcome()
        var state = try await session.state()
        var now = session.openedAt
        var obligations: [Obligation] = []
        /// A replay that checks nothing does not read the state after a clock move; a step that takes an argument
        /// from the state reads it then, so it finds what the walk found there.
        var stateUnread = false
        let needsStore = settings.properties.contains { $0.condition.readsStore }
        let needsJournal = settings.properties.contains { $0.condition.readsJournal }

        /// Checks every property against the session as it stands after step `number`; nil when all hold.
        func check(after number: Int, step: WalkStep?) async throws -> PropertyFailure? {
            guard checking != .nothing else { return nil }
            let store: JSONValue = needsStore ? try await session.store() : .null
            let journal: JSONValue = needsJournal ? PropertyCondition.journalWithJSONBodies(try await session.journal()) : .null
            for property in settings.properties {
                outcome.checks[property.name, default: 0] += 1
                let holds = property.condition.holds(state: state, store: store, journal: journal)
                switch property.kind {
                case .always where !holds, .never where holds:
                    return PropertyFailure(property: property.name, step: number,
                                           detail: property.condition.explain(state: state, store: store, journal: journal), place: property.place)
                case .eventually(let after, let within):
                    guard case .action(after, _, _) = step else { break }
                    obligations.append(Obligation(property: property, deadline: now.addingTimeInterval(within.seconds),
                                                  within: within, step: number))
                default: break
                }
            }
            obligations.removeAll { $0.property.condition.holds(state: state, store: store, journal: journal) }
            for property in closures {
                outcome.checks[property.name, default: 0] += 1
                guard property.holds(state) else {
                    return PropertyFailure(property: property.name, step: number,
                                           detail: "the state is \(String(decoding: state.jsonData, as: UTF8.self))")
                }
            }
            guard settings.fullCoverage else { return nil }
            outcome.checks[BuiltInProperty.noUnansweredRequest.rawValue, default: 0] += 1
            guard checking == .unansweredAtEveryStep else { return nil }
            let unmatched = try await session.requestCounts().unmatched
            guard unmatched > 0 else { return nil }
            let first = try await session.firstUnmatchedRequest()
            return PropertyFailure(property: BuiltInProperty.noUnansweredRequest.rawValue, step: number,
                                   detail: "\(unmatched) request\(unmatched == 1 ? "" : "s") matched no route"
                                       + (first.map { ", first \($0)" } ?? ""))
        }

        /// Moves the clock by `duration`. While an `eventually` is pending it stops wherever something wakes, so the
        /// condition is tried in every state the Model passes through (a refresh that starts a second after the
        /// one asked for has ended must not hide that end), and at each deadline, to decide it there.
        func move(by duration: Duration, number: Int) async throws -> PropertyFailure? {
            var remaining = duration
            while remaining > .zero, let deadline = obligations.map(\.deadline).min() {
                // The next stop: the end of the move, the deadline or a wake, whichever comes first.
                var gap = min(remaining, Self.milliseconds(from: now, to: deadline))
                if let wake = try await session.nextWake(), wake > now {
                    // To the millisecond the clock's API takes, rounded up so that the move reaches the wake.
                    gap = min(gap, .milliseconds(Int64((wake.timeIntervalSince(now) * 1000).rounded(.up))))
                }
                if gap > .zero {
                    now = try await session.advanceClock(by: gap)
                    remaining -= gap
                    if checking != .nothing { state = try await session.state() } else { stateUnread = true }
                    if let failure = try await check(after: number, step: nil) { return failure }
                }
                if let missed = obligations.first(where: { $0.deadline <= now }) {
                    return PropertyFailure(property: missed.property.name, step: number,
                                           detail: "not true within \(DurationText.format(missed.within)) of step \(missed.step); "
                                               + missed.property.condition.explain(state: state, store: .null, journal: .null),
                                           place: missed.property.place)
                }
            }
            if remaining > .zero {
                now = try await session.advanceClock(by: remaining)
                if checking != .nothing { state = try await session.state() } else { stateUnread = true }
            }
            return nil
        }

        if let failure = try await check(after: 0, step: nil) {
            outcome.failure = failure
            outcome.failingStates = (state, state)
            outcome.finalState = state
            return outcome
        }
        let planned: Int
        switch steps {
        case .drawn(_, let count): planned = count
        case .given(let given): planned = given.count
        }
        for number in stride(from: 1, through: planned, by: 1) {
            // A walk on a daemon's engine makes no request that a cancellation would end, so it looks itself.
            try Task.checkCancellation()
            let step: WalkStep
            switch steps {
            case .drawn(let generator, _): step = generator.next(state: state)
            // A given step's arguments from the state are read where the walk that drew them found them.
            case .given(let given):
                if stateUnread, case .action(_, _, let from) = given[number - 1], !from.isEmpty {
                    state = try await session.state()
                    stateUnread = false
                }
                step = given[number - 1].taken(in: state)
            }
            outcome.steps.append(step)
            let before = state
            var failure: PropertyFailure?
            do {
                switch step {
                case .action(let name, let arguments, _):
                    state = try await session.perform(name, arguments: arguments)
                case .advanceClock(let duration):
                    failure = try await move(by: DurationText.parse(duration) ?? .zero, number: number)
                case .network(let conditions):
                    try await session.setNetworkConditions(conditions)
                    // Going offline or failing breaks the open streams, which the Model sees at once.
                    state = try await session.state()
                case .route(let name, let change):
                    // `extends` the route the session was created with: an empty change puts it back.
                    var patch: [String: JSONValue] = if case .object(let members) = change { members } else { [:] }
                    patch["extends"] = .string(name)
                    try await session.setRoute(name, to: .object(patch))
                case .setKeyValue(let key, let value):
                    try await session.setKeyValue(key, to: value)
                case .removeKeyValue(let key):
                    try await session.removeKeyValue(key)
                case .stream(let end):
                    if let closed = try await session.closeOldestStream(fault: end == .drop ? .connectionReset : nil) { state = closed }
                }
            } catch let error as ScenarioClientError {
                guard case .api(let status, let body) = error else { throw error }
                if body.code == .modelEscaped {
                    failure = PropertyFailure(property: BuiltInProperty.noModelEscape.rawValue, step: number, detail: body.message)
                } else if status >= 500 {
                    failure = PropertyFailure(property: BuiltInProperty.noServerError.rawValue, step: number,
                                              detail: "\(status) \(body.code): \(body.message)")
                } else {
                    outcome.refused += 1
                }
            }
            if failure == nil { failure = try await check(after: number, step: step) }
            if let failure {
                outcome.failure = failure
                outcome.failingStates = (before, state)
                break
            }
        }
        // What a replay of the steps must end in: the state before the moves below, which a replay does not make.
        outcome.finalState = state
        // A walk ends with every `eventually` decided: the clock moves on to each deadline still pending.
        if outcome.failure == nil, let last = obligations.map(\.deadline).max() {
            let before = state
            if let failure = try await move(by: Self.milliseconds(from: now, to: last), number: outcome.steps.count) {
                outcome.failure = failure
                outcome.failingStates = (before, state)
            }
        }
        if outcome.failure == nil, checking != .nothing {
            // A daemon that only warns of escapes (--model-escapes warn) still lists them.
            if let escape = try await session.firstEscape() {
                outcome.failure = PropertyFailure(property: BuiltInProperty.noModelEscape.rawValue, step: outcome.steps.count, detail: escape)
                outcome.failingStates = (state, state)
            }
        }
        let counts = try await session.requestCounts()
        outcome.routes = counts.routes
        outcome.unanswered = counts.unmatched
        if checking == .nothing { outcome.finalState = try await session.state() }
        return outcome
    }

    /// The time from `start` to `end`, to the millisecond the clock's API takes.
    private static func milliseconds(from start: Date, to end: Date) -> Duration {
        .milliseconds(Int64((end.timeIntervalSince(start) * 1000).rounded()))
    }
}
