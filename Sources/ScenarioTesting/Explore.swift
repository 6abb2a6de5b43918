public import Foundation
public import ScenarioExplore
import ControlServer
import Services

/// Explores `scenario` as `scenarioctl explore` does, in the test's daemon, and fails the test when a walk breaks a
/// property: the error names the property, the minimal walk and how the failing step changed the state. A daemon in
/// another process runs the walks itself (`POST /v1/explorations`), unless `properties` are given, which only this
/// process can check; a daemon in this process walks on its engine directly.
///
/// ```swift
/// @Test func theInboxNeverCountsBelowZero() async throws {
///     try await explore("inbox", walks: 200, steps: 12, seed: 7, properties: [
///         .always("unread is never negative") { ($0.value(at: "/unread") ?? 0) != .int(-1) },
///     ])
/// }
/// ```
/// - Parameters:
///   - scenario: The scenario to explore; its `properties.yaml` is checked too, when it has one.
///   - walks: Walks to run.
///   - steps: Steps per walk.
///   - seed: The seed; the same seed walks the same steps and finds the same minimal walk.
///   - parallelism: Walks run at once; the report does not depend on it.
///   - properties: Properties written in Swift, checked after every step beside the file's.
///   - propertiesFile: A properties file to check instead of the scenario's own.
///   - walkFile: Where to write a failing walk for `scenarioctl play`.
///   - daemon: The daemon; by default the suite's, else the test run's shared one.
/// - Returns: The report, for assertions on what was reached.
/// - Throws: ``ScenarioTestingError`` with the report's text when a property failed.
@discardableResult
public func explore(
    _ scenario: String, walks: Int = 100, steps: Int = 20, seed: UInt64 = 1,
    parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, properties: [WalkProperty] = [],
    propertiesFile: URL? = nil, walkFile: URL? = nil, daemon: TestDaemon? = nil
) async throws -> ExploreReport {
    let daemon = if let daemon { daemon } else if let current = TestDaemon.current { current } else { try await TestDaemon.shared.value }
    let options = ExploreOptions(walks: walks, steps: steps, seed: seed, parallelism: parallelism, propertiesFile: propertiesFile,
                                 properties: properties, walkFile: walkFile)
    // A daemon in another process runs the walks on its own engine (one request, not one per step) and reports as an
    // explorer here would; properties written in Swift can only be checked here, so they keep the walks here.
    let report = if properties.isEmpty, !(daemon.walkTarget is EngineWalkTarget) {
        try await daemon.client.explore(scenario, options: options)
    } else {
        try await Explorer(client: daemon.client, target: daemon.walkTarget, scenario: scenario, options: options).run()
    }
    if report.failure != nil { throw ScenarioTestingError(report.text) }
    return report
}
