public import Foundation
public import Services

/// A to-do list that saves its items, sends each new one to the team's server, and marks items overdue as its
/// clock passes their due dates, notifying the user of each
/// (through the team's own ``Notifier`` service). It is a `@MainActor` class, as app Models usually are, hosted as it is.
@MainActor
public final class TodoList: Model {
    public nonisolated static let name = "TodoList"
    public nonisolated static let actionNames = ["add", "complete"]

    /// The server's collection of items.
    public nonisolated static let server = URL(string: "https://api.todo.example/v1/todos")!
    /// The key-value keys: the items, and the number of the last identifier given out.
    public nonisolated static let itemsKey = "items"
    public nonisolated static let lastNumberKey = "lastNumber"
    public nonisolated static let keyValueKeys = [
        itemsKey: "every item, an array of {id, title, due, isDone, isOverdue, isSynced}",
        lastNumberKey: "the number of the last identifier given out (todo-N), an integer",
    ]

    /// What a client may ask.
    public enum Action: Decodable, Sendable {
        /// Adds an item due `dueInMinutes` from now and sends it to the server.
        case add(title: String, dueInMinutes: Int)
        /// Marks an item done.
        case complete(id: String)
    }

    private let services: ModelServices
    public private(set) var state = TodoListState()

    public init(services: ModelServices) {
        self.services = services
    }

    /// Loads the saved items, then looks at the clock every minute to mark what became overdue.
    public func run() async {
        do {
            state.items = try await services.keyValue.value([TodoItem].self, forKey: Self.itemsKey) ?? []
        } catch {
            state.error = "The saved items are unreadable: \(error)"
        }
        await markOverdue()
        while !Task.isCancelled {
            do { try await services.clock.sleep(for: .seconds(60)) } catch { return }
            await markOverdue()
        }
    }

    public func perform(_ action: Action) async {
        switch action {
        case .add(let title, let minutes): await add(title: title, dueInMinutes: minutes)
        case .complete(let id): await complete(id: id)
        }
    }

    private func add(title: String, dueInMinutes minutes: Int) async {
        guard !title.isEmpty, minutes >= 0 else {
            state.error = "An item needs a title and a due time that is not in the past."
            return
        }
        let number = ((try? await services.keyValue.value(Int.self, forKey: Self.lastNumberKey)) ?? 0) + 1
        let now = await services.clock.now()
        var item = TodoItem(id: "todo-\(number)", key: services.random.uuid(), title: title,
                            due: now.addingTimeInterval(Double(minutes) * 60))
        item.isSynced = await send(item)
        state.items.append(item)
        state.now = now
        await save(lastNumber: number)
    }

    private func complete(id: String) async {
        guard let index = state.items.firstIndex(where: { $0.id == id }) else {
            state.error = "There is no item \(id)."
            return
        }
        state.items[index].isDone = true
        state.items[index].isOverdue = false
        await save(lastNumber: nil)
    }

    /// POSTs the item; true when the server answered 2xx.
    private func send(_ item: TodoItem) async -> Bool {
        let body = (try? JSONEncoder.services.encode(item)) ?? Data()
        do {
            let response = try await services.network.send(NetworkRequest(
                method: .post, url: Self.server,
                headerFields: [.contentType: "application/json", .init("Idempotency-Key")!: item.key?.uuidString ?? ""],
                body: body))
            guard (200..<300).contains(response.head.status.code) else {
                state.error = "The server refused \(item.id): \(response.head.status.code)."
                return false
            }
            state.error = nil
            return true
        } catch {
            state.error = "The server cannot be reached; \(item.id) is kept here."
            return false
        }
    }

    private func markOverdue() async {
        let now = await services.clock.now()
        state.now = now
        var newlyOverdue: [TodoItem] = []
        for index in state.items.indices where !state.items[index].isDone {
            let isOverdue = state.items[index].due < now
            if isOverdue, !state.items[index].isOverdue { newlyOverdue.append(state.items[index]) }
            state.items[index].isOverdue = isOverdue
        }
        for item in newlyOverdue {
            do {
                try await services.notifier.notify(Notice(title: "Overdue", body: item.title))
            } catch {
                state.error = "Notifications are off; \(item.title) is overdue."
            }
        }
    }

    private func save(lastNumber: Int?) async {
        do {
            try await services.keyValue.set(state.items, forKey: Self.itemsKey)
            if let lastNumber { try await services.keyValue.set(lastNumber, forKey: Self.lastNumberKey) }
        } catch {
            state.error = "The items could not be saved: \(error)"
        }
    }
}
