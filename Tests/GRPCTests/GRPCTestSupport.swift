import Fakes
import Foundation
import GRPCCore
import ScenarioFormat
import ScenarioGRPC
import Services
import SessionRuntime
import Testing

/// The shipped trip planner's descriptor set, which these tests' scenarios name.
let transitDescriptors = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scenarios/trips-happy/transit.pb")

/// A scenario's problems, as an error.
struct Problems: Error {
    var all: [ScenarioProblem]
}

/// The scenario `yaml`, written beside the transit descriptor set; or its problems.
func load(_ yaml: String) throws -> Result<Scenario, Problems> {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-\(UUID().uuidString)/transit")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(yaml.utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
    try FileManager.default.copyItem(at: transitDescriptors, to: directory.appendingPathComponent("transit.pb"))
    let catalog = ScenarioCatalog.load(from: [directory.deletingLastPathComponent()], models: ["TripPlanner"])
    if let scenario = catalog.scenarios["transit"] { return .success(scenario) }
    return .failure(Problems(all: catalog.problems["transit"] ?? []))
}

/// What a network of a scenario's routes journaled, newest version of each entry by sequence.
actor Journal {
    private(set) var entries: [Int: NetworkExchange] = [:]
    func record(_ exchange: NetworkExchange) { entries[exchange.sequence] = exchange }
    var all: [NetworkExchange] { entries.keys.sorted().map { entries[$0]! } }
}

/// A routed network of `yaml`'s routes on a frozen virtual clock, with `upstream` for live routes.
func network(_ yaml: String, upstream: (any NetworkService)? = nil) throws -> (RoutedNetwork, VirtualClock, Journal) {
    guard case .success(let scenario) = try load(yaml) else { throw GRPCTestError.invalid(try load(yaml)) }
    let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
    let journal = Journal()
    let network = RoutedNetwork(routes: scenario.routes, clock: clock, upstream: upstream) { await journal.record($0) }
    return (network, clock, journal)
}

enum GRPCTestError: Error {
    case invalid(Result<Scenario, Problems>)
}

/// The scenario head every test's routes go under.
func scenario(routes: String) -> String {
    """
    description: The transit operator's gRPC service.
    model: TripPlanner
    network:
      routes:
    \(routes.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
    """
}

/// Waits until `condition` holds, yielding between looks: what a call does after a client's write happens on other
/// tasks. Bounded, so a condition that never comes fails the test instead of hanging it.
func until(_ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<200_000 {
        if await condition() { return }
        await Task.yield()
    }
    Issue.record("waited 200,000 turns and the condition never held", sourceLocation: sourceLocation)
    throw CancellationError()
}

extension Result where Failure == any Error {
    /// The outcome of `body`, kept so what must follow it (a shutdown) runs either way.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
