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

    /// Any lower-case user with a password signs in, and the token names the user: matchers and a template.
    static let anyUser: JSONValue = ["network": ["routes": [[
        "name": "sign-in",
        "request": ["method": "POST", "url": "https://api.busratings.example/v1/session",
                    "bodyFields": ["/user": ["regex": "^[a-z]+$"], "/password": ["present": true]]],
        "response": ["status": 201, "template": true, "body": ["token": "tok-{{request.body.user}}"]],
    ]]]]

    @Test func matchersAndATemplateLetAnyWellFormedUserSignIn() async throws {
        try await withScenario("ratings-signed-out", overriding: Self.anyUser) { session in
            #expect(try await session.perform("signIn", ["user": "bob", "password": "pw"], as: RatingsState.self).user == "bob")
            #expect(try await session.client.keyValue("session", session: session.id) == ["user": "bob", "token": "tok-bob"])
            // Upper case fails the regex, so the scenario's wrong-password route answers.
            let refused = try await session.perform("signIn", ["user": "Bob", "password": "pw"], as: RatingsState.self)
            #expect(refused.error != nil)
            #expect(try await session.requests().map(\.route) == ["sign-in", "wrong-password"])
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
            #expect(message.contains("GET https://api.busratings.example/v1/rating?user=bob matched no route"), "\(message)")
            #expect(message.contains("closest route 'rating' differs in /query/user: expected alice, got bob"), "\(message)")
        }
    }
}
