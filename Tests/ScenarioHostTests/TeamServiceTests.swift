import ControlAPI
import Fakes
import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Synchronization
import Testing

/// A service a team defines, as the host runs it: the fake a scenario configures, or the live implementation a
/// scenario picks; its state read and replaced, journaled, isolated per session and restored by a reset.
@Suite struct TeamServiceTests {
    /// A tally the Model adds to: the team's service protocol and key.
    protocol Tally: Sendable { func add(_ amount: Int) async -> Int }
    enum TallyKey: ServiceKey {
        typealias Value = any Tally
        static let name = "tally"
    }
    struct Count: Codable, Sendable, Equatable { var count: Int }
    struct FakeTally: Tally {
        let context: ServiceFakeContext<Count>
        func add(_ amount: Int) async -> Int {
            let total = context.update { $0.count += amount; return $0.count }
            await context.journal("add", detail: "\(amount)", outcome: "total \(total)")
            return total
        }
    }
    final class LiveTally: Tally {
        let total = Mutex(1_000)
        func add(_ amount: Int) async -> Int { total.withLock { $0 += amount; return $0 } }
    }

    /// A Model that only adds to the tally and shows the total it got back.
    struct Total: Decodable, Equatable { var total: Int }

    actor Adder: Model {
        static let name = "Adder"
        static let actionNames = ["add"]
        enum Action: Decodable, Sendable { case add(amount: Int) }
        struct State: Encodable, Sendable { var total = 0 }
        let services: ModelServices
        var state = State()
        init(services: ModelServices) { self.services = services }
        func perform(_ action: Action) async {
            guard case .add(let amount) = action else { return }
            state.total = await services[TallyKey.self].add(amount)
        }
        func run() async {}
    }

    static let tally = ServiceDefinition(TallyKey.self, description: "A running total", initialState: Count(count: 0),
                                         fake: { FakeTally(context: $0) }, live: { LiveTally() })

    func makeHost() throws -> SessionHost {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("team-service-\(UUID())")
        let files = [
            "fake": "description: f\nmodel: Adder\ntally:\n  count: 5\n",
            "live": "description: l\nmodel: Adder\ntally: live\n",
        ]
        for (name, text) in files {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            try text.write(to: root.appendingPathComponent("\(name)/scenario.yaml"), atomically: true, encoding: .utf8)
        }
        let models = ModelRegistry([Adder.self], services: [Self.tally])
        let catalog = ScenarioCatalog.load(from: [root], models: models.names, services: models.services)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return SessionHost(catalog: catalog, models: models)
    }

    @Test func theFakeStartsFromTheScenarioIsJournaledIsolatedAndResetToTheScenario() async throws {
        let host = try makeHost()
        let first = try await host.createSession(of: "fake"), second = try await host.createSession(of: "fake")
        try await first.perform("add", arguments: ["amount": 2])
        #expect(try await first.serviceState("tally") == ["count": 7])
        #expect(try await second.serviceState("tally") == ["count": 5], "each session has its own fake")
        let entry = try #require(await first.requestJournal().entries.first)
        #expect(entry.service == "tally" && entry.method == "add" && entry.outcome == "total 7" && entry.sequence == 1)
        #expect(await first.requestJournal().unmatched.isEmpty, "a service entry is not an unmatched request")

        try await first.replaceServiceState("tally", with: ["count": 100])
        #expect(try await first.perform("add", arguments: ["amount": 1]).decoded(as: Total.self) == Total(total: 101))
        await #expect(throws: HostError.self) { try await first.replaceServiceState("tally", with: ["count": "many"]) }
        await #expect(throws: HostError.self) { try await first.serviceState("tallly") }
        try await first.reset()
        #expect(try await first.serviceState("tally") == ["count": 5])
    }

    @Test func aLiveServiceIsUsedAndHasNoFakeState() async throws {
        let host = try makeHost()
        let session = try await host.createSession(of: "live")
        #expect(try await session.perform("add", arguments: ["amount": 1]).decoded(as: Total.self) == Total(total: 1001))
        let error = await #expect(throws: HostError.self) { try await session.serviceState("tally") }
        #expect(error?.code == .serviceIsLive)
        #expect(await session.services().map { "\($0.definition.name):\($0.isFake)" } == ["tally:false"])
    }
}
