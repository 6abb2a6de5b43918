import Foundation
import ScenarioClient
import Testing

/// A client of no daemon says so with the reason, instead of retrying the connection until its deadline.
@Suite struct ClientFailFastTests {
    @Test func aMissingSocketIsNamedWithItsReason() async throws {
        let socket = "/tmp/scenariod-no-such-\(UUID().uuidString.prefix(8))/control.sock"
        let error = await #expect(throws: ScenarioClientError.self) { try await ControlClient(socketPath: socket).health() }
        guard case .daemonUnreachable(let named, let reason)? = error else {
            Issue.record("expected daemonUnreachable, got \(String(describing: error))")
            return
        }
        #expect(named == socket && reason == "no such socket")
        #expect(error?.description.contains("pass --socket PATH") == true)
    }
}
