import Foundation
public import ControlAPI
import ScenarioClient
public import Services
import Synchronization

private let sessionCounter = Atomic<Int>(0)

/// Opens an isolated session of `scenario` for the length of `body`, and deletes it afterwards, whatever happens.
///
/// ```swift
/// @Test func offlineDemoShowsTheFeed() async throws {
///     try await withScenario("offline-demo") { session in
///         let feed = try await session.state(as: Feed.self)
///         #expect(feed.items.count == 4)
///     }
/// }
/// ```
/// - Parameters:
///   - scenario: The scenario to run.
///   - id: The session's id; by default one made from the scenario and a counter, unique in this process.
///   - overrides: Scenario sections for this session only, so a variation needs no file of its own: extra or
///     replacement routes, seed, clock start (`["network": ["routes": [...]], "clock": ["start": "…"]]`), read as
///     a scenario file that extends `scenario` would be, with each problem at its JSON pointer.
///   - endpoint: Give the session its own HTTP listener, for an app the daemon does not host (`.init(port: 0)` for a
///     loopback port with a token); ``ScenarioSession/endpoint`` then says where it listens.
///   - daemon: The daemon; by default the suite's (``TestDaemon/current``, set by the `.scenarioDaemon(…)`
///     trait), else ``TestDaemon/shared``.
///   - body: What the test does in the session; its result is returned.
public func withScenario<Result: Sendable>(
    _ scenario: String, id: String? = nil, overriding overrides: JSONValue? = nil, endpoint: SessionEndpointRequest? = nil,
    daemon: TestDaemon? = nil, _ body: (ScenarioSession) async throws -> Result
) async throws -> Result {
    let daemon = if let daemon { daemon } else if let current = TestDaemon.current { current } else { try await TestDaemon.shared.value }
    let id = id ?? "\(scenario)-t\(ProcessInfo.processInfo.processIdentifier)-\(sessionCounter.add(1, ordering: .relaxed).newValue)"
    let created = try await daemon.client.createSession(scenario: scenario, id: id, overrides: overrides, endpoint: endpoint)
    let session = ScenarioSession(id: id, client: daemon.client, endpoint: created.endpoint)
    do {
        let result = try await body(session)
        try await daemon.client.deleteSession(id)
        return result
    } catch {
        try? await daemon.client.deleteSession(id)
        throw error
    }
}
