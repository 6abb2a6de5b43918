import ControlAPI
import Foundation
import ScenarioClient
public import Services

/// Checks that a Model is deterministic under `scenario`: `steps` run twice, in two sessions, the second starting
/// over a second later on the wall clock, and every step must give the same state and the same requests.
///
/// A Model that takes time, HTTP, saved state and identifiers only from its services passes; one that reads
/// `Date()`, makes a `UUID()` or does work scenariod cannot wait for shows it here: the message names the first step
/// at which the runs differ, the JSON pointer of the difference and both values there, such as
/// `step 1 (action add {"title":"A"}) at /state/items/0/id: "6F1…" against "9C2…"`.
///
/// ```swift
/// try await expectDeterministic("todo-due-soon", daemon: daemon) { session in
///     try await session.perform("add", ["title": "A", "dueInMinutes": 1])
///     try await session.advanceClock(by: "2m")
/// }
/// ```
/// - Throws: ``ScenarioTestingError`` showing where the two runs differ.
/// - Parameters:
///   - scenario: The scenario both sessions run.
///   - overrides: Changes both sessions make to it, as for ``withScenario(_:id:overriding:endpoint:daemon:_:)``.
///   - daemon: The daemon to use; by default the suite's (``TestDaemon/current``), else the test run's shared daemon.
///   - steps: What the test does in each session.
public func expectDeterministic(
    _ scenario: String, overriding overrides: JSONValue? = nil, daemon: TestDaemon? = nil,
    _ steps: (ScenarioSession) async throws -> Void
) async throws {
    let first = try await DeterminismRun(scenario, overrides: overrides, daemon: daemon, steps: steps)
    // Past the next whole second, so a wall-clock reading cannot come out the same in both runs.
    try await Task.sleep(for: .milliseconds(1_100))
    let second = try await DeterminismRun(scenario, overrides: overrides, daemon: daemon, steps: steps)
    if let difference = first.firstDifference(from: second) {
        throw ScenarioTestingError("scenario \(scenario) is not deterministic: the same steps gave two runs that differ first at "
            + "\(difference) (does the Model read Date(), UUID(), a clock of its own, or depend on the order of its own tasks?)")
    }
}

/// One run of a determinism check: each step of the session's history as the daemon kept it (its time, the
/// requests it caused, whole) and, where the session can be rewound, the state after it; otherwise the final state.
private struct DeterminismRun {
    var steps: [HistoryBody.Step]
    /// For each step, what is compared: its `summary`, `time`, `requests` (the journal entries it caused) and `state`.
    var views: [JSONValue]

    init(_ scenario: String, overrides: JSONValue?, daemon: TestDaemon?, steps: (ScenarioSession) async throws -> Void) async throws {
        (self.steps, views) = try await withScenario(scenario, overriding: overrides, daemon: daemon) { session in
            try await steps(session)
            // A daemon that only warns of escapes (--model-escapes warn) still lists them: a run the session did not
            // own is not a run to compare.
            let escapes = try await session.client.session(session.id).escapes
            if !escapes.isEmpty {
                throw ScenarioTestingError("scenario \(scenario) cannot be checked for determinism: its Model did work the session cannot see or order: "
                    + escapes.map(\.sentence).joined(separator: "; "))
            }
            let history = try await session.client.history(session: session.id)
            let journal = Dictionary(try await session.requests().map { ($0.sequence, $0) }, uniquingKeysWith: { $1 })
            var states: [Int: JSONValue] = [:]
            if let last = history.steps.last { states[last.step] = try await session.client.state(session: session.id) }
            // Rewinding replays the steps before, from the newest down, so each step's own state can be compared and
            // a difference found where it began rather than where it ended.
            if history.notRewindable == nil {
                for step in history.steps.dropLast().reversed() {
                    states[step.step] = try await session.client.rewind(to: step.step, session: session.id)
                }
            }
            let views = try history.steps.map { step in
                var view: [String: JSONValue] = [
                    "summary": .string(step.summary),
                    "time": .string(InstantText.format(step.time)),
                    // The canonical bodies: the text as sent (`sentBody`) may order an object's keys either way.
                    "requests": try JSONValue(json: JSONEncoder.services.encode(step.requests.compactMap { journal[$0] }.map { exchange in
                        var exchange = exchange
                        exchange.sentBody = nil
                        return exchange
                    })),
                ]
                view["state"] = states[step.step]
                return JSONValue.object(view)
            }
            return (history.steps, views)
        }
    }

    /// `step 2 (advance the clock by 15m) /state/items/0/title: "A" against "B"`, or nil when the runs agree.
    func firstDifference(from other: DeterminismRun) -> String? {
        for (index, (mine, theirs)) in zip(views, other.views).enumerated() {
            if let mismatch = mine.firstMismatch(with: theirs) {
                return "step \(steps[index].step) (\(steps[index].summary)) at \(mismatch)"
            }
        }
        guard steps.count == other.steps.count else {
            return "the number of steps: \(steps.count) in the first run, \(other.steps.count) in the second"
        }
        return nil
    }
}
