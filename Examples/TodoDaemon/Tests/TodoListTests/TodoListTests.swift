import Fakes
import ControlAPI
import Foundation
import ScenarioClient
import ScenarioTesting
import Services
import Testing
import TodoFakes
import TodoList

/// The team's daemon, started once for this test run from the `todod` SwiftPM built beside these tests, on the
/// package's own scenarios (run `swift test` from the package directory).
let todod = Task { try await TestDaemon.startOrConnect(executable: "todod") }

/// The same Model and scenarios in this process: no executable, no socket, microseconds a step.
let inProcessDaemon = Task { try TestDaemon.inProcess(models: [TodoList.self], services: [.notifications]) }

/// Every test runs both ways: unit-test speed in process, and the real daemon as CI and demos run it.
enum Mode: String, CaseIterable, Sendable {
    case inProcess, daemon

    var daemon: TestDaemon {
        get async throws {
            switch self {
            case .inProcess: try await inProcessDaemon.value
            case .daemon: try await todod.value
            }
        }
    }
}

/// The state as this suite reads it: the team's own view of its Model.
struct TodoView: Decodable, Equatable {
    struct Item: Decodable, Equatable {
        var id: String
        var key: UUID?
        var title: String
        var due: Date
        var isDone: Bool
        var isOverdue: Bool
        var isSynced: Bool
    }
    var items: [Item]
    var error: String?
}

@Suite struct TodoListTests {
    @Test(arguments: Mode.allCases)
    func aNewItemGetsTheNextIdentifierAndIsSentToTheServer(_ mode: Mode) async throws {
        try await withScenario("todo-empty", daemon: try await mode.daemon) { session in
            let state = try await session.perform("add", ["title": "Write the demo script", "dueInMinutes": 30], as: TodoView.self)
            #expect(state.items.map(\.id) == ["todo-1"])
            #expect(state.items.first?.isSynced == true && state.error == nil)
            #expect(state.items.first?.due == ISO8601DateFormatter().date(from: "2026-11-02T09:30:00Z"))
            try await session.expectRequest("POST", "https://api.todo.example/v1/todos",
                                            bodyContaining: ["id": "todo-1", "title": "Write the demo script"])
            try await session.expectNoUnmatchedRequests()
        }
    }

    @Test(arguments: Mode.allCases)
    func anItemTheServerRefusesIsKeptUnsynced(_ mode: Mode) async throws {
        try await withScenario("todo-server-down", daemon: try await mode.daemon) { session in
            let state = try await session.perform("add", ["title": "Call the bank", "dueInMinutes": 5], as: TodoView.self)
            #expect(state.items.first?.isSynced == false)
            #expect(state.error == "The server refused todo-1: 503.")
        }
    }

    @Test(arguments: Mode.allCases)
    func anItemBecomesOverdueWhenTheVirtualClockPassesItsDueDate(_ mode: Mode) async throws {
        try await withScenario("todo-due-soon", daemon: try await mode.daemon) { session in
            let before = try await session.state(as: TodoView.self)
            #expect(before.items.map(\.isOverdue) == [false, false])
            try await session.advanceClock(by: "6m")
            let after = try await session.state(as: TodoView.self)
            #expect(after.items.map(\.isOverdue) == [true, false], "the done item is never overdue")
            let next = try await session.perform("add", ["title": "Send the notes", "dueInMinutes": 60], as: TodoView.self)
            #expect(next.items.last?.id == "todo-3", "identifiers continue from the seeded lastNumber")
        }
    }

    @Test(arguments: Mode.allCases)
    func aMisspeltArgumentIsRefusedNamingIt(_ mode: Mode) async throws {
        try await withScenario("todo-empty", daemon: try await mode.daemon) { session in
            await #expect(throws: (any Error).self) { try await session.perform("add", ["title": "x", "dueInMinute": 5]) }
            let models = try await session.client.models()
            #expect(models.map(\.name) == ["TodoList"])
            #expect(models.first?.actions.first { $0.name == "add" }?.arguments.map(\.name) == ["title", "dueInMinutes"])
        }
    }

    /// Identifiers from the randomness service: the same in every session and daemon of a scenario, others with
    /// another seed.
    @Test(arguments: Mode.allCases)
    func newItemsGetTheSameKeysInEverySessionAndOtherKeysWithAnotherSeed(_ mode: Mode) async throws {
        func keys(_ scenario: String) async throws -> [UUID?] {
            try await withScenario(scenario, daemon: try await mode.daemon) { session in
                try await session.perform("add", ["title": "A", "dueInMinutes": 5])
                let keys = try await session.perform("add", ["title": "B", "dueInMinutes": 5], as: TodoView.self).items.map(\.key)
                _ = try await session.client.resetSession(session.id)
                let afterReset = try await session.perform("add", ["title": "A", "dueInMinutes": 5], as: TodoView.self)
                #expect(afterReset.items.map(\.key) == [keys[0]], "a reset restores the seed")
                return keys
            }
        }
        let first = try await keys("todo-empty"), second = try await keys("todo-empty")
        let otherSeed = try await keys("todo-empty-seed-7")
        #expect(first.allSatisfy { $0 != nil } && first[0] != first[1])
        #expect(first == second)
        #expect(first[0] != otherSeed[0] && first[1] != otherSeed[1])
        let inProcess = try await withScenario("todo-empty", daemon: try await Mode.inProcess.daemon) { session in
            try await session.perform("add", ["title": "A", "dueInMinutes": 5], as: TodoView.self).items.map(\.key)
        }
        #expect(inProcess[0] == first[0], "the daemon process and the in-process daemon give the same key")
    }

    /// The team's own service: its fake's state, seeded by the scenario, read and replaced through the API, and
    /// its interactions in the journal.
    @Test(arguments: Mode.allCases)
    func anOverdueItemIsNotifiedAndTheInboxCanBeReadAndReplaced(_ mode: Mode) async throws {
        try await withScenario("todo-due-soon", daemon: try await mode.daemon) { session in
            #expect(try await session.serviceState("notifications", as: Inbox.self) == Inbox())
            try await session.advanceClock(by: "6m")
            let inbox = try await session.serviceState("notifications", as: Inbox.self)
            #expect(inbox.delivered.map(\.body) == ["Write the demo script"])
            #expect(inbox.delivered.first?.at == ISO8601DateFormatter().date(from: "2026-11-02T09:06:00Z"))
            let entry = try #require(try await session.requests().first { $0.service == "notifications" })
            #expect(entry.method == "notify" && entry.outcome == "shown" && entry.body == "Write the demo script")
            try await session.expectNoUnmatchedRequests()

            var off = inbox
            off.permission = .denied
            try await session.setServiceState("notifications", to: off)
            try await session.perform("add", ["title": "Rehearse", "dueInMinutes": 1])
            let state = try await session.advanceClockAndRead(by: "2m")
            #expect(state.error == "Notifications are off; Rehearse is overdue.")
            #expect(try await session.serviceState("notifications", as: Inbox.self).delivered.count == 1)

            let error = await #expect(throws: ScenarioClientError.self) {
                try await session.client.setServiceState("notifications", to: ["permission": "maybe", "delivred": []], session: session.id)
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains("notifications.permission"))
            _ = try await session.client.resetSession(session.id)
            #expect(try await session.serviceState("notifications", as: Inbox.self) == Inbox(), "a reset restores the scenario's state")
        }
    }

    /// A change to a fake's state reaches the session's event stream, after the Model's own state.
    @Test(arguments: Mode.allCases)
    func theInboxChangeArrivesAsAnEvent(_ mode: Mode) async throws {
        try await withScenario("todo-due-soon", daemon: try await mode.daemon) { session in
            var events = try await session.client.events(session: session.id).makeAsyncIterator()
            _ = try await events.next() // the current state, always first
            try await session.advanceClock(by: "6m")
            var names: [String] = []
            while names.last != "clockMoved", let event = try await events.next() {
                names.append(event.name)
                if event.name == "serviceChanged" {
                    #expect(event.data.contains(["service": "notifications"]))
                    let change = try JSONDecoder.services.decode(ServiceStateBody.self, from: event.data.jsonData)
                    let inbox = try JSONDecoder.services.decode(Inbox.self, from: change.state.jsonData)
                    #expect(inbox.delivered.map(\.body) == ["Write the demo script"])
                }
            }
            #expect(names.filter { $0 == "serviceChanged" }.count == 1, "\(names)")
        }
    }

    /// An `extends` child changes one field of its parent's service section and keeps the rest.
    @Test(arguments: Mode.allCases)
    func aScenarioWithNotificationsOffReportsTheOverdueItem(_ mode: Mode) async throws {
        try await withScenario("todo-notifications-off", daemon: try await mode.daemon) { session in
            #expect(try await session.serviceState("notifications", as: Inbox.self).permission == .denied)
            let state = try await session.advanceClockAndRead(by: "6m")
            #expect(state.error == "Notifications are off; Write the demo script is overdue.")
            #expect(state.items.map(\.isOverdue) == [true, false])
        }
    }

    /// The check any team can run on its own Model: a `Date()`, a `UUID()` or a real sleep in TodoList fails it.
    @Test func todoListIsDeterministic() async throws {
        try await expectDeterministic("todo-due-soon", daemon: try await Mode.inProcess.daemon) { session in
            try await session.perform("add", ["title": "A", "dueInMinutes": 1])
            try await session.advanceClock(by: "2m")
            try await session.perform("complete", ["id": "todo-1"])
        }
    }

    /// The promise scenariod makes for any Model, here a `@MainActor` class: the same scenario and actions give
    /// byte-identical state and journal, session beside session, and in process as in the daemon.
    @Test func theSameActionsGiveByteIdenticalStateAndJournal() async throws {
        func run(_ mode: Mode) async throws -> (state: Data, journal: Data) {
            try await withScenario("todo-due-soon", daemon: try await mode.daemon) { session in
                try await session.perform("add", ["title": "A", "dueInMinutes": 1])
                try await session.advanceClock(by: "2m")
                try await session.perform("complete", ["id": "todo-1"])
                try await session.perform("add", ["title": "B", "dueInMinutes": 3])
                let state = try await session.client.state(session: session.id)
                let journal = try await session.requests()
                return (state.jsonData, try JSONEncoder.services.encode(journal))
            }
        }
        async let first = run(.daemon)
        async let second = run(.daemon)
        async let third = run(.inProcess)
        let (a, b, c) = try await (first, second, third)
        #expect(a.state == b.state && a.journal == b.journal)
        #expect(a.state == c.state && a.journal == c.journal)
        #expect(String(decoding: a.state, as: UTF8.self).contains("todo-4"))
        #expect(String(decoding: a.journal, as: UTF8.self).contains(#""service":"notifications""#))
    }
}

extension ScenarioSession {
    /// Moves the clock and reads the state the move left.
    func advanceClockAndRead(by duration: String) async throws -> TodoView {
        try await advanceClock(by: duration)
        return try await state(as: TodoView.self)
    }
}
