import ControlAPI
import Fakes
import Foundation
import ScenarioHost
import Services
import TaskModels
import Testing

/// Work a Model does outside its session is reported as `modelEscaped`, never left silently wrong.
@Suite struct ModelEscapeTests {
    /// Each action of Escaper's and what it is reported as: a dispatch queue that then calls the clock is two.
    static let escapes: [(action: String, kinds: [ModelEscape.Kind])] = [
        ("detach", [.detachedTask]), ("wallSleep", [.wallClockSleep]), ("dispatch", [.dispatchQueue, .untrackedWork]),
        ("thread", [.untrackedWork]), ("readDate", [.wallClockRead]),
        // Foundation sends a URLSession request to a queue of its own from the calling task.
        ("urlSession", [.dispatchQueue]),
    ]

    @Test(arguments: escapes)
    func anEscapeIsInTheSessionsInfoAndOnItsEventStream(action: String, kinds: [ModelEscape.Kind]) async throws {
        let host = try makeTaskHost()
        let session = try await host.createSession(of: "escaper")
        let subscription = try await session.eventStream()
        try await session.perform(action)
        let escapes = try await session.info().escapes
        #expect(escapes.map(\.kind) == kinds)
        #expect(escapes.allSatisfy { $0.during == "action '\(action)'" })
        // The clock move is a marker: every event of the action came before it.
        try await session.advanceClock(by: .seconds(1))
        var escaped: [ModelEscape] = []
        for await numbered in subscription.events {
            if case .modelEscaped(let escape) = numbered.event { escaped.append(escape) }
            if case .clockMoved = numbered.event { break }
        }
        #expect(escaped.map(\.kind) == kinds)
    }

    @Test(arguments: escapes)
    func underTheFailPolicyTheStepFailsNamingTheEscape(action: String, kinds: [ModelEscape.Kind]) async throws {
        let host = try makeTaskHost(escapePolicy: .fail)
        let session = try await host.createSession(of: "escaper")
        let error = await #expect(throws: HostError.self) { try await session.perform(action) }
        #expect(error?.code == .modelEscaped)
        for kind in kinds { #expect(error?.message.contains(kind.rawValue) == true, "\(error?.message ?? "")") }
        #expect(error?.message.contains("during action '\(action)'") == true)
    }

    @Test func aModelThatStaysInItsSessionReportsNothing() async throws {
        let host = try makeTaskHost(escapePolicy: .fail)
        let session = try await host.createSession(of: "escaper")
        try await session.perform("stay")
        try await session.advanceClock(by: .seconds(1))
        #expect(try await session.json() == ["steps": 2])
        #expect(try await session.info().escapes.isEmpty)
    }
}
