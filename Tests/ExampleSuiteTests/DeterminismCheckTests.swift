import Foundation
import ScenarioTesting
import Services
import Testing

/// `expectDeterministic` catches a Model whose runs differ (here by `UUID()`, which no hook sees) at the step and
/// place they differ, refuses one that reads the wall clock (an escape), and passes one that takes time from its
/// clock service; all run in process, as a team's unit tests would.
@Suite struct DeterminismCheckTests {
    /// A Model with one honest action, one that makes up an identifier and one that reads `Date()`.
    actor Stamps: Model {
        enum Action: Decodable, Sendable { case stampFromClock, stampWithUUID, stampFromWallClock }
        static let name = "Stamps"
        static let actionNames = ["stampFromClock", "stampWithUUID", "stampFromWallClock"]
        private let services: ModelServices
        var state: [String] = []
        init(services: ModelServices) { self.services = services }
        func run() async {}
        func perform(_ action: Action) async {
            switch action {
            case .stampFromClock: state.append(await services.clock.now().formatted(.iso8601))
            case .stampWithUUID: state.append(UUID().uuidString)
            case .stampFromWallClock: state.append(Date().formatted(.iso8601))
            }
        }
    }

    static func daemon() throws -> TestDaemon {
        let root = URL(fileURLWithPath: "/tmp/stamps-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("stamps"), withIntermediateDirectories: true)
        try "description: Stamps on a frozen clock.\nmodel: Stamps\nclock:\n  start: 2026-11-02T09:00:00Z\n"
            .write(to: root.appendingPathComponent("stamps/scenario.yaml"), atomically: true, encoding: .utf8)
        return try TestDaemon.inProcess(models: [Stamps.self], scenarios: root.path)
    }

    @Test func aModelThatTakesTimeFromItsClockPasses() async throws {
        try await expectDeterministic("stamps", daemon: try Self.daemon()) { session in
            try await session.perform("stampFromClock")
            try await session.advanceClock(by: "1m")
            try await session.perform("stampFromClock")
        }
    }

    @Test func aModelWhoseRunsDifferIsCaughtAtTheStepThatDifferedWithThePlaceAndBothValues() async throws {
        do {
            try await expectDeterministic("stamps", daemon: try Self.daemon()) { session in
                try await session.perform("stampFromClock")
                try await session.advanceClock(by: "1m")
                try await session.perform("stampWithUUID")
            }
            Issue.record("a Model that makes up a UUID() passed the determinism check")
        } catch let error as ScenarioTestingError {
            // Steps 1 and 2 agree; step 3 is where the identifier was made up, at the state's second item.
            let message = error.description
            #expect(message.contains("is not deterministic: the same steps gave two runs that differ first at step 3 (action stampWithUUID) at /state/1: \""), "\(message)")
            #expect(message.firstMatch(of: /\/state\/1: "[0-9A-F-]{36}" against "[0-9A-F-]{36}"/) != nil, "both values are shown: \(message)")
            #expect(!message.contains("09:00:00Z\",\""), "not the whole state: \(message)")
        }
    }

    @Test func aModelThatReadsTheWallClockIsRefusedNamingTheRead() async throws {
        let error = await #expect(throws: (any Error).self) {
            try await expectDeterministic("stamps", daemon: try Self.daemon()) { session in
                try await session.perform("stampFromClock")
                try await session.perform("stampFromWallClock")
            }
        }
        let message = error.map { String(describing: $0) } ?? ""
        #expect(message.contains("wallClockRead") && message.contains("during action 'stampFromWallClock'"), "\(message)")
    }
}
