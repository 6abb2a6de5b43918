import ControlAPI
import Foundation
import HTTPTypes
import Logging
import ScenarioExplore
import Synchronization

/// The explorations a daemon runs on its engine (`/v1/explorations`): each on a task of its own, its changes told
/// to whoever follows it. The last ones over are kept to be read, the oldest forgotten past ``ExplorationLimits/kept``, so a
/// daemon that explores for days holds a bounded number.
final class ExplorationRegistry: Sendable {
    private struct Entry {
        var exploration: Exploration
        var task: Task<Void, Never>?
        var followers: [Int: AsyncStream<Exploration>.Continuation] = [:]
    }

    private struct Explorations {
        var entries: [String: Entry] = [:]
        /// Ids in the order they started: the list's order, and the order the ones over are forgotten in.
        var order: [String] = []
        var nextID = 1
        var nextFollower = 0
    }

    let limits: ExplorationLimits
    private let state = Mutex(Explorations())

    init(limits: ExplorationLimits) {
        self.limits = limits
    }

    /// Starts `explorer` as a new exploration and returns it, running; `logger` says when it starts and how it ends.
    /// - Throws: ``APIError`` 429 `tooManyExplorations` when ``ExplorationLimits/running`` run already.
    func start(_ explorer: Explorer, logger: Logger) throws(APIError) -> Exploration {
        let exploration = try state.withLock { state throws(APIError) -> Exploration in
            let running = state.entries.values.filter { $0.exploration.status == .running }.count
            guard running < limits.running else {
                throw APIError(.tooManyRequests, .tooManyExplorations, "\(running) explorations are running, as many as this daemon runs at once; wait for one to end, or cancel one (DELETE /v1/explorations/ID).")
            }
            let exploration = Exploration(id: "x\(state.nextID)", scenario: explorer.scenario, status: .running, progress: ExploreProgress(
                walksDone: 0, walks: explorer.options.walks, steps: 0, shrinking: false))
            state.nextID += 1
            state.entries[exploration.id] = Entry(exploration: exploration)
            state.order.append(exploration.id)
            forgetOld(in: &state)
            return exploration
        }
        let id = exploration.id
        let options = explorer.options
        // Said before the task starts, so a short exploration cannot say it ended first.
        logger.info("exploration \(id) of \(explorer.scenario) started: \(options.walks) walks of \(options.steps) steps, seed \(options.seed)",
                    metadata: ["scenario": "\(explorer.scenario)"])
        let task = Task {
            let ended: Exploration
            do {
                let report = try await explorer.run { progress in self.change(id) { $0.progress = progress } }
                ended = change(id) {
                    $0.status = .finished
                    $0.report = report
                    $0.progress = ExploreProgress(walksDone: report.walksRun, walks: report.walks, steps: report.steps, shrinking: false)
                }
            } catch where Task.isCancelled {
                ended = change(id) { $0.status = .cancelled }
            } catch {
                ended = change(id) {
                    $0.status = .failed
                    $0.error = "\(error)"
                }
            }
            logger.info("exploration \(id) of \(ended.scenario) \(ended.status.rawValue)\(Self.outcome(of: ended))",
                        metadata: ["scenario": "\(ended.scenario)"])
        }
        state.withLock { $0.entries[id]?.task = task }
        return exploration
    }

    /// The exploration `id`.
    /// - Throws: ``APIError`` 404 `unknownExploration`.
    func exploration(_ id: String) throws(APIError) -> Exploration {
        guard let exploration = state.withLock({ $0.entries[id]?.exploration }) else { throw unknown(id) }
        return exploration
    }

    /// Every exploration kept, oldest first.
    var all: [Exploration] {
        state.withLock { state in state.order.compactMap { state.entries[$0]?.exploration } }
    }

    /// The exploration `id` now and after each change; the sequence ends after it is over.
    /// - Throws: ``APIError`` 404 `unknownExploration`.
    func follow(_ id: String) throws(APIError) -> AsyncStream<Exploration> {
        // A follower that reads slowly needs only the newest: each value is the whole exploration, the last its end.
        let (stream, continuation) = AsyncStream.makeStream(of: Exploration.self, bufferingPolicy: .bufferingNewest(1))
        // Set outside the lock: the handler takes it, and runs at once for a stream already ended.
        let number = state.withLock { state in
            defer { state.nextFollower += 1 }
            return state.nextFollower
        }
        continuation.onTermination = { _ in self.state.withLock { _ = $0.entries[id]?.followers.removeValue(forKey: number) } }
        guard let now = state.withLock({ state -> Exploration? in
            guard let entry = state.entries[id] else { return nil }
            // Yielded under the lock, so no change can come between it and the ones that follow.
            continuation.yield(entry.exploration)
            if entry.exploration.status == .running { state.entries[id]?.followers[number] = continuation }
            return entry.exploration
        }) else { throw unknown(id) }
        if now.status != .running { continuation.finish() }
        return stream
    }

    /// Cancels the exploration `id` when it runs, waits for its end (its sessions deleted), forgets it and returns
    /// it as it ended.
    /// - Throws: ``APIError`` 404 `unknownExploration`.
    func cancel(_ id: String) async throws(APIError) -> Exploration {
        guard let task = try state.withLock({ state throws(APIError) in
            guard let entry = state.entries[id] else { throw unknown(id) }
            return entry.task
        }) else { return try forget(id) }
        task.cancel()
        await task.value
        return try forget(id)
    }

    /// Cancels every exploration that runs and waits for their ends: the daemon's shutdown.
    func cancelAll() async {
        let tasks = state.withLock { $0.entries.values.compactMap(\.task) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func forget(_ id: String) throws(APIError) -> Exploration {
        guard let entry = state.withLock({ state -> Entry? in
            state.order.removeAll { $0 == id }
            return state.entries.removeValue(forKey: id)
        }) else { throw unknown(id) }
        return entry.exploration
    }

    /// Applies `change` to exploration `id`, tells its followers and returns it changed.
    @discardableResult
    private func change(_ id: String, _ change: (inout Exploration) -> Void) -> Exploration {
        let (exploration, followers) = state.withLock { state -> (Exploration, [AsyncStream<Exploration>.Continuation]) in
            guard var entry = state.entries[id] else {
                // Forgotten while it ran (only a cancel does that, after its end): nothing follows it any more.
                var gone = Exploration(id: id, scenario: "", status: .cancelled, progress: ExploreProgress(walksDone: 0, walks: 0, steps: 0, shrinking: false))
                change(&gone)
                return (gone, [])
            }
            change(&entry.exploration)
            let followers = Array(entry.followers.values)
            state.entries[id] = entry
            if entry.exploration.status != .running {
                state.entries[id]?.followers = [:]
                state.entries[id]?.task = nil
                forgetOld(in: &state)
            }
            return (entry.exploration, followers)
        }
        // Outside the lock: a follower's end calls back into it to leave.
        for follower in followers {
            follower.yield(exploration)
            if exploration.status != .running { follower.finish() }
        }
        return exploration
    }

    /// Forgets the oldest explorations that are over, past ``ExplorationLimits/kept``.
    private func forgetOld(in state: inout Explorations) {
        var over = state.order.filter { state.entries[$0]?.exploration.status != .running }
        while over.count > limits.kept {
            let oldest = over.removeFirst()
            state.entries[oldest] = nil
            state.order.removeAll { $0 == oldest }
        }
    }

    /// What an exploration that is over found, for its log line: `: 40000 steps in 1.50 s, every property held`.
    private static func outcome(of ended: Exploration) -> String {
        switch ended.status {
        case .finished:
            ended.report.map { ": \($0.steps) steps in \(String(format: "%.2f", $0.seconds)) s, " + ($0.failure.map { "\($0.property.property) failed" } ?? "every property held") } ?? ""
        case .failed: ended.error.map { ": \($0)" } ?? ""
        case .cancelled, .running: ""
        }
    }

    private func unknown(_ id: String) -> APIError {
        APIError(.notFound, .unknownExploration, "there is no exploration '\(id.prefix(80))'; GET /v1/explorations lists those running and the last \(limits.kept) over.")
    }
}
