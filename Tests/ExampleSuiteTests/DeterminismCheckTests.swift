import Foundation
import ScenarioTesting
import Services
import Testing

/// `expectDeterministic` catches a Model that reads the wall clock, and passes one that takes time from its
/// clock service; both run in process, as a team's unit tests would.
@Suite struct DeterminismCheckTests {
    /// A Model with one honest action and one that reads `Date()`.
    actor Stamps: Model {
        enum Action: Decodable, Sendable { case stampFromClock, stampFromWallClock }
        static let name = "Stamps"
        static let actionNames = ["stampFromClock", "stampFromWallClock"]
        private let services: Services
        var state: [Date] = []
        init(services: Services) { self.services = services }
        func run() async {}
        func perform(_ action: Action) async {
            switch action {
            case .stampFromClock: state.append(await services.clock.now())
            case .stampFromWallClock: state.append(Date())
            }
        }
    }

    static func daemon() throws -> ScenarioDaemon {
        let root = URL(fileURLWithPath: "/tmp/stamps-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("stamps"), withIntermediateDirectories: true)
        try "description: Stamps on a frozen clock.\nmodel: Stamps\nclock:\n  start: 2026-11-02T09:00:00Z\n"
            .write(to: root.appendingPathComponent("stamps/scenario.yaml"), atomically: true, encoding: .utf8)
        return try ScenarioDaemon.inProcess(models: [Stamps.self], scenarios: root.path)
    }

    @Test func aModelThatTakesTimeFromItsClockPasses() async throws {
        try await expectDeterministic("stamps", daemon: try Self.daemon()) { session in
            try await session.perform("stampFromClock")
            try await session.advanceClock(by: "1m")
            try await session.perform("stampFromClock")
        }
    }

    @Test func aModelThatReadsTheWallClockIsCaughtAtTheStepThatReadItWithThePlaceAndBothValues() async throws {
        do {
            try await expectDeterministic("stamps", daemon: try Self.daemon()) { session in
                try await session.perform("stampFromClock")
                try await session.advanceClock(by: "1m")
                try await session.perform("stampFromWallClock")
            }
            Issue.record("a Model that reads Date() passed the determinism check")
        } catch let error as ScenarioTestingError {
            // Steps 1 and 2 agree; step 3 is where the wall clock was read, at the state's second stamp.
            let message = error.description
            #expect(message.contains("is not deterministic: the same steps gave two runs that differ first at step 3 (action stampFromWallClock) at /state/1: \""), "\(message)")
            #expect(message.firstMatch(of: /\/state\/1: "2\d{3}-[^"]+" against "2\d{3}-[^"]+"/) != nil, "both values are shown: \(message)")
            #expect(!message.contains("09:00:00Z\",\"2"), "not the whole state: \(message)")
        }
    }
}
