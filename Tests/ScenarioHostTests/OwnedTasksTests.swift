import Fakes
import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Synchronization
import TaskModels
import Testing

/// Every ring of every bell, across sessions: what a probe sees.
final class BellLog: Sendable {
    let rings = Mutex<[String]>([])
}

struct ProbeBell: Bell {
    let context: ServiceFakeContext<[String]>
    let log: BellLog

    func ring(_ note: String) async {
        log.rings.withLock { $0.append(note) }
        context.update { $0.append(note) }
    }
}

/// A host over the test Models' scenarios, whose bells ring into `log`.
func makeTaskHost(log: BellLog = BellLog(), escapePolicy: EscapePolicy = .warn, extra: [String: String] = [:],
                  stateDirectory: URL? = nil) throws -> SessionHost {
    let models = ModelRegistry(taskModels, services: [
        ServiceDefinition(BellKey.self, description: "A probe", initialState: [String]()) { context in ProbeBell(context: context, log: log) },
    ])
    let root = URL(fileURLWithPath: try writeTaskModelScenarios(extra: extra))
    let catalog = ScenarioCatalog.load(from: [root], models: models.names, services: models.services)
    #expect(catalog.problems.isEmpty, "\(catalog.problems)")
    return SessionHost(catalog: catalog, models: models, stateDirectory: stateDirectory, escapePolicy: escapePolicy)
}

extension Session {
    func json() async throws -> JSONValue { try JSONValue(json: try await state().jsonData) }
}

/// The session owns the tasks its Model starts: after the action and the clock move, the state is exact.
@Suite struct OwnedTasksTests {
    @Test func aMainActorModelsTaskTimerFiresExactlyWhenTheClockReachesIt() async throws {
        let host = try makeTaskHost()
        let session = try await host.createSession(of: "kettle")
        #expect(try await session.perform("boil").decoded(as: KettleView.self).status == "heating")
        try await session.advanceClock(by: .seconds(89))
        #expect(try await session.state().decoded(as: KettleView.self).status == "heating")
        try await session.advanceClock(by: .seconds(1))
        #expect(try await session.state().decoded(as: KettleView.self).status == "ready")
    }

    @Test func sixteenParallelSessionsOfEachModelSettleExactly() async throws {
        let host = try makeTaskHost()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let kettle = try await host.createSession(of: "kettle", id: "kettle-\(index)")
                    try await kettle.perform("boil")
                    try await kettle.advanceClock(by: .seconds(90))
                    #expect(try await kettle.state().decoded(as: KettleView.self).status == "ready")

                    let relay = try await host.createSession(of: "relay", id: "relay-\(index)")
                    try await relay.perform("relay")
                    #expect(try await relay.json() == ["hops": 1])
                    try await relay.advanceClock(by: .seconds(4))
                    #expect(try await relay.json() == ["hops": 1])
                    try await relay.advanceClock(by: .seconds(1))
                    #expect(try await relay.json() == ["answer": "pong", "hops": 2])

                    let fanOut = try await host.createSession(of: "fan-out", id: "fan-out-\(index)")
                    try await fanOut.perform("gather")
                    try await fanOut.advanceClock(by: .seconds(29))
                    #expect(try await fanOut.json() == ["results": [], "done": false])
                    try await fanOut.advanceClock(by: .seconds(1))
                    #expect(try await fanOut.json() == [
                        "results": ["async-let-a", "async-let-b", "group-d", "group-e", "group-c"], "done": true,
                    ])
                }
            }
            try await group.waitForAll()
        }
    }

    @Test(arguments: ["metronome", "pendulum"])
    func aRunLoopThatSleepsIsSeenAtEveryTickOfOneLongMove(scenario: String) async throws {
        let host = try makeTaskHost()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let session = try await host.createSession(of: scenario, id: "\(scenario)-\(index)")
                    try await session.advanceClock(by: .seconds(600))
                    #expect(try await session.json() == ["ticks": 600])
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aSessionOfASavedScenarioInANewHostSettlesExactly() async throws {
        let directory = URL(fileURLWithPath: "/tmp/owned-tasks-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try makeTaskHost(stateDirectory: directory)
        let session = try await first.createSession(of: "relay", id: "before")
        try await session.advanceClock(by: .seconds(60))
        _ = try await first.saveSession("before", as: "relay-later", description: nil)
        await first.closeAll()

        // A restarted daemon reads the saved scenario beside the others.
        let restarted = try makeTaskHost(stateDirectory: directory)
        await restarted.reload(from: [URL(fileURLWithPath: try writeTaskModelScenarios()), SessionHost.recordings(in: directory)])
        let resumed = try await restarted.createSession(of: "relay-later")
        try await resumed.perform("relay")
        try await resumed.advanceClock(by: .seconds(5))
        #expect(try await resumed.json() == ["answer": "pong", "hops": 2])
    }
}

struct KettleView: Decodable {
    var status: String
}
