import Foundation
import ScenarioHost
import Services
import Testing

/// Sessions share nothing mutable: driven concurrently, each ends exactly as it does alone.
@Suite struct IsolationTests {
    @Test func sixteenConcurrentSessionsOfDifferentScenariosDoNotAffectEachOther() async throws {
        let scenarios = ["offline-demo", "first-launch", "empty-feed", "server-error", "malformed-feed", "slow-network",
                         "offline", "feed-updates", "ratings-signed-out", "ratings-signed-in", "ratings-expired-token"]
        let plan = (0..<16).map { scenarios[$0 % scenarios.count] }

        var alone: [String: Data] = [:]
        for scenario in Set(plan) {
            alone[scenario] = try await DeterminismTests.drive(makeHost().createSession(of: scenario))
        }

        let host = makeHost()
        let together = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (index, scenario) in plan.enumerated() {
                group.addTask {
                    let session = try await host.createSession(of: scenario, id: "s\(index)")
                    return (index, try await DeterminismTests.drive(session))
                }
            }
            return try await group.reduce(into: [Int: Data]()) { $0[$1.0] = $1.1 }
        }
        #expect(together.count == 16)
        for (index, scenario) in plan.enumerated() {
            #expect(together[index] == alone[scenario], "session s\(index) of \(scenario) differs from running alone")
        }
        #expect(await host.openSessions().count == 16)
    }
}
