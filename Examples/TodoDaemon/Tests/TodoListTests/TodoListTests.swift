import Foundation
import ScenarioTesting
import Services
import Testing
import TodoList

/// The team's daemon, started once for this test run from the `todod` SwiftPM built beside these tests, on the
/// package's own scenarios (run `swift test` from the package directory).
let todod = Task { try await ScenarioDaemon.startOrConnect(executable: "todod") }

/// The same Model and scenarios in this process: no executable, no socket, microseconds a step.
let inProcessDaemon = Task { try ScenarioDaemon.inProcess(models: [TodoList.self]) }

/// Every test runs both ways: unit-test speed in process, and the real daemon as CI and demos run it.
enum Mode: String, CaseIterable, Sendable {
    case inProcess, daemon

    var daemon: ScenarioDaemon {
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
    }
}
