import ScenarioClient
import ScenarioTesting
import Services
import Testing

struct RatingsState: Decodable, Sendable {
    struct Submission: Decodable, Equatable, Sendable { var driver: Int; var bus: Int }
    var user: String?
    var lastSubmitted: Submission?
    var error: String?
}

@Suite struct RatingsScenarioTests {
    @Test func signingInAndRatingSendsTheRightBodies() async throws {
        try await withScenario("ratings-signed-out") { session in
            try await session.perform("signIn", ["user": "alice", "password": "correct horse"])
            let state = try await session.perform("rate", ["driver": 5, "bus": 4], as: RatingsState.self)
            #expect(state.lastSubmitted == .init(driver: 5, bus: 4))
            try await session.expectRequest("POST", "https://api.busratings.example/v1/session", bodyContaining: ["user": "alice"])
            try await session.expectRequest("POST", "https://api.busratings.example/v1/ratings", bodyContaining: ["driver": 5, "bus": 4])
            try await session.expectNoUnmatchedRequests()
        }
    }

    @Test func anExpiredTokenSignsTheUserOut() async throws {
        try await withScenario("ratings-expired-token") { session in
            let state = try await session.perform("fetchRating", as: RatingsState.self)
            #expect(state.user == nil)
            #expect(state.error == "You were signed out: Your token expired at 2026-11-01T08:00:00Z; sign in again.")
        }
    }

    /// A request no route expects fails the test with an explanation: the closest route and the field that differed.
    @Test func anUnmatchedRequestIsExplained() async throws {
        try await withScenario("ratings-signed-in") { session in
            try await session.client.setKeyValue("session", to: ["user": "bob", "token": "tok-bob"], session: session.id)
            try await session.perform("fetchRating")
            let failure = await #expect(throws: ScenarioTestingError.self) { try await session.expectNoUnmatchedRequests() }
            let message = failure?.description ?? ""
            #expect(message.contains("GET https://api.busratings.example/v1/rating matched no route"), "\(message)")
            #expect(message.contains("closest route 'rating' differs in headers.Authorization: expected Bearer tok-alice-1, got Bearer tok-bob"), "\(message)")
        }
    }
}
