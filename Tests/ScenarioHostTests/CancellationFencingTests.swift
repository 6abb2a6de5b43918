import Fakes
import Foundation
import ScenarioHost
import Services
import Synchronization
import TaskModels
import Testing

/// A timer pending when its session is deleted, reset or rewound never fires into anything.
@Suite struct CancellationFencingTests {
    @Test func aDeletedSessionsTimersNeverFireEvenIntoANewSessionOfTheSameID() async throws {
        let log = BellLog()
        let host = try makeTaskHost(log: log)
        let old = try await host.createSession(of: "alarm", id: "a1")
        try await old.perform("arm", arguments: ["seconds": 60, "note": "old"])
        try await old.perform("armCarelessly", arguments: ["seconds": 60, "note": "careless"])
        try await host.deleteSession("a1")

        let new = try await host.createSession(of: "alarm", id: "a1")
        try await new.advanceClock(by: .seconds(120))
        #expect(try await new.json() == ["armed": [], "rang": []])
        #expect(log.rings.withLock { $0 }.isEmpty)
        #expect(await new.requestJournal().entries.isEmpty)
        #expect(try await new.keyValueKeys().isEmpty)
    }

    @Test func aResetOrRewindLetsGoOfPendingTimers() async throws {
        let log = BellLog()
        let host = try makeTaskHost(log: log)
        let session = try await host.createSession(of: "alarm")
        try await session.perform("armCarelessly", arguments: ["seconds": 60, "note": "before-reset"])
        try await session.reset()
        try await session.advanceClock(by: .seconds(120))
        #expect(try await session.json() == ["armed": [], "rang": []])

        // Steps: 0 start, 1 arm, 2 reset, 3 advance; a rewind to 3 lets go of what step 4 armed.
        try await session.perform("armCarelessly", arguments: ["seconds": 60, "note": "rewound-away"])
        _ = try await session.rewind(to: 3)
        try await session.advanceClock(by: .seconds(120))
        #expect(log.rings.withLock { $0 }.isEmpty)
        #expect(await session.requestJournal().entries.isEmpty)
    }

    @Test func aTimerOfALiveSessionRingsEverything() async throws {
        // The test of the tests above: the same timer, not let go of, does reach the bell, the store and the network.
        let log = BellLog()
        let host = try makeTaskHost(log: log)
        let session = try await host.createSession(of: "alarm")
        try await session.perform("arm", arguments: ["seconds": 60, "note": "kept"])
        try await session.advanceClock(by: .seconds(60))
        #expect(try await session.json() == ["armed": ["kept"], "rang": ["kept"]])
        #expect(log.rings.withLock { $0 } == ["kept"])
        #expect(await session.requestJournal().entries.map(\.url) == ["https://alarm.test/ring"])
        #expect(try await session.keyValueKeys() == ["rang"])
    }
}
