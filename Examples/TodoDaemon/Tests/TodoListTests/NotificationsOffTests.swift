import ScenarioTesting
import Testing
import TodoFakes

/// A suite that names its daemon once, with a trait: every `withScenario` in it runs on todod, with no `daemon:`.
@Suite(.scenarioDaemon(executable: "todod"))
struct NotificationsOffTests {
    @Test func anOverdueItemIsReportedWhenNotificationsAreOff() async throws {
        try await withScenario("todo-notifications-off") { session in
            try await session.advanceClock(by: "6m")
            let state = try await session.state(as: TodoView.self)
            #expect(state.error == "Notifications are off; Write the demo script is overdue.")
            #expect(try await session.serviceState("notifications", as: Inbox.self).delivered.isEmpty)
        }
    }
}
