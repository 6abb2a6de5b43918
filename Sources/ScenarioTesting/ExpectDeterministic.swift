import Foundation
import ScenarioClient
public import Services

/// Checks that a Model is deterministic under `scenario`: `steps` run twice, in two sessions, the second starting
/// over a second later on the wall clock, and both must end with byte-identical state and journal.
///
/// A Model that takes time, HTTP, saved state and identifiers only from its services passes; one that reads
/// `Date()`, makes a `UUID()` or does work scenariod cannot wait for shows it here, with both states in the message.
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
///   - overrides: Changes both sessions make to it, as for ``withScenario(_:id:overriding:daemon:_:)``.
///   - daemon: The daemon to use; the test run's shared daemon by default.
///   - steps: What the test does in each session.
public func expectDeterministic(
    _ scenario: String, overriding overrides: JSONValue? = nil, daemon: ScenarioDaemon? = nil,
    _ steps: (ScenarioSession) async throws -> Void
) async throws {
    func run() async throws -> (state: String, journal: String) {
        try await withScenario(scenario, overriding: overrides, daemon: daemon) { session in
            try await steps(session)
            let state = try await session.client.state(session: session.id)
            let journal = try await session.requests()
            return (String(decoding: state.jsonData, as: UTF8.self),
                    String(decoding: try JSONEncoder.services.encode(journal), as: UTF8.self))
        }
    }
    let first = try await run()
    // Past the next whole second, so a wall-clock reading cannot come out the same in both runs.
    try await Task.sleep(for: .milliseconds(1_100))
    let second = try await run()
    if first.state != second.state {
        throw ScenarioTestingError("scenario \(scenario) is not deterministic: the same steps gave two states "
            + "(does the Model read Date(), UUID() or a clock of its own?):\n  \(first.state)\n  \(second.state)")
    }
    if first.journal != second.journal {
        throw ScenarioTestingError("scenario \(scenario) is not deterministic: the same steps gave two journals:\n  \(first.journal)\n  \(second.journal)")
    }
}
