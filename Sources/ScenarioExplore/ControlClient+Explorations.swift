import ControlAPI
import Foundation
public import ScenarioClient
import Services

/// Explorations the daemon runs on its own engine (`/v1/explorations`): no request per step, so a walk goes at the
/// engine's speed however far the client is.
extension ControlClient {
    /// Starts an exploration in the daemon (`POST /v1/explorations`) and returns it, running.
    /// - Throws: ``/ScenarioClient/ScenarioClientError`` `unknownScenario` (404), `invalidRequest` (400: the
    ///   properties file's problems, each at its `file:line:column`), `explorationTooLong` (422) or
    ///   `tooManyExplorations` (429).
    public func startExploration(_ request: ExplorationRequest) async throws -> Exploration {
        try await send("POST", "/v1/explorations", body: request)
    }

    /// The exploration `id`: its progress, and its report once it is over.
    public func exploration(_ id: String) async throws -> Exploration {
        try await get("/v1/explorations/\(segment(id))")
    }

    /// The explorations running and the last ones over, oldest first.
    public func explorations() async throws -> [Exploration] {
        try await (get("/v1/explorations") as ExplorationList).explorations
    }

    /// Cancels the exploration `id` when it runs, waits until its walks' sessions are deleted, forgets it and returns
    /// it as it ended.
    @discardableResult
    public func cancelExploration(_ id: String) async throws -> Exploration {
        try await decode(transport.send(ControlRequest(method: "DELETE", path: "/v1/explorations/\(segment(id))")))
    }

    /// The exploration `id` as it changes (`GET /v1/explorations/ID/events`): now, after each walk, and once more
    /// when it is over, after which the sequence ends.
    public func explorationUpdates(_ id: String) async throws -> AsyncThrowingStream<Exploration, any Error> {
        let response = try await transport.send(ControlRequest(method: "GET", path: "/v1/explorations/\(segment(id))/events", streaming: true))
        guard response.status == 200 else { throw try await error(from: response) }
        let events = ServerSentEvent.parse(response.body)
        return AsyncThrowingStream { continuation in
            let reading = Task {
                do {
                    for try await event in events where event.name == "exploration" {
                        continuation.yield(try JSONDecoder.services.decode(Exploration.self, from: event.data.jsonData))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }

    /// Explores `scenario` in the daemon, as ``Explorer/run(progress:)`` does through a client, and returns the same
    /// report; the minimal failing walk is written to the options' walk file here. Cancelling the calling task
    /// cancels the exploration, and returns once its sessions are deleted.
    /// - Parameters:
    ///   - scenario: The scenario to explore.
    ///   - options: What to run. Its properties file is read here and sent; properties written in Swift cannot be
    ///     sent (run an ``Explorer`` in the process that has them).
    ///   - progress: Called after each walk, and when the shrink of a failing walk begins.
    /// - Throws: ``ExploreError`` when the daemon refuses the exploration or it cannot run, saying why;
    ///   `CancellationError` when cancelled; the client's error when the daemon cannot be reached.
    public func explore(_ scenario: String, options: ExploreOptions = ExploreOptions(),
                        progress: (@Sendable (ExploreProgress) -> Void)? = nil) async throws -> ExploreReport {
        guard options.properties.isEmpty else {
            throw ExploreError("properties written in Swift run in the process that has them, not in the daemon; explore with an Explorer there")
        }
        var properties: ExplorationRequest.Properties?
        if let file = options.propertiesFile {
            do {
                properties = .init(file: file.path, text: try options.propertiesText ?? String(contentsOf: file, encoding: .utf8))
            } catch {
                throw ExploreError("cannot read the properties file \(file.path): \(error.localizedDescription)")
            }
        }
        let started: Exploration
        do {
            started = try await startExploration(ExplorationRequest(scenario: scenario, options: options, properties: properties))
        } catch let error as ScenarioClientError where error.code == .unknownScenario || error.code == .invalidScenario {
            throw ExploreError("cannot explore scenario '\(scenario)': \(error)")
        } catch let error as ScenarioClientError where error.code != nil {
            throw ExploreError(error.description)
        }
        var last = started
        do {
            for try await update in try await explorationUpdates(started.id) {
                last = update
                progress?(update.progress)
            }
        } catch where Task.isCancelled {}
        if Task.isCancelled, last.status == .running {
            // The read ends with the task; the cancel is a task of its own, so it is sent and waited for all the same.
            _ = await Task { try? await cancelExploration(started.id) }.value
            throw CancellationError()
        }
        switch last.status {
        case .finished:
            guard var report = last.report else { break }
            if let failure = report.failure, let url = options.walkFile {
                try WalkFile(failure: failure, scenario: scenario, seed: report.seed, properties: options.propertiesFile?.path).write(to: url)
                report.failure?.walkFile = url.path
            }
            return report
        case .failed:
            throw ExploreError(last.error ?? "exploration \(last.id) failed")
        case .cancelled:
            throw ExploreError("exploration \(last.id) was cancelled by another client (DELETE /v1/explorations/\(last.id))")
        case .running:
            break
        }
        throw ExploreError("the daemon stopped sending exploration \(last.id)'s progress before its end (it was \(last.status.rawValue)); "
            + "read it with GET /v1/explorations/\(last.id)")
    }
}
