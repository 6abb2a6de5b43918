import Fakes
import Foundation
import Ratings
import Services
import SessionRuntime
import Testing

@Suite struct RatingsTests {
    static let session = Data(#"{"token":"t1","user":"ann"}"#.utf8)

    @Test func signingInStoresTheToken() async throws {
        let harness = await ModelHarness<Ratings>(routes: [
            Route(name: "sign-in", matcher: RequestMatcher(method: "POST", body: ["user": "ann", "password": "pw"]),
                  outcomes: [answer(201, json: #"{"token":"t1"}"#)]),
        ])
        await harness.start()
        await harness.perform(.signIn(user: "ann", password: "pw"))
        #expect(await harness.model.state.user == "ann")
        #expect(await harness.store.data(forKey: "session") == Self.session)
        let request = try #require(await harness.journal.entries.first)
        #expect(request.url == "https://api.busratings.example/v1/session")
        #expect(request.headers.contains("Content-Type: application/json"))
    }

    /// The user goes in the query, so a route can tell whose rating is asked for (and a near miss can say so).
    @Test func fetchingARatingAsksForTheSignedInUsersByName() async throws {
        let session = Data(#"{"token":"t2","user":"ann & co"}"#.utf8)
        let harness = await ModelHarness<Ratings>(routes: [
            Route(name: "rating", matcher: RequestMatcher(method: "GET", query: ["user": "ann & co"]),
                  outcomes: [answer(200, json: #"{"average":4.5,"count":12}"#)]),
        ], seed: ["session": session])
        await harness.start()
        await harness.perform(.fetchRating)
        let state = await harness.model.state
        #expect(state.rating?.average == 4.5 && state.rating?.count == 12 && state.error == nil, "\(state)")
        let request = try #require(await harness.journal.entries.first)
        #expect(request.url == "https://api.busratings.example/v1/rating?user=ann%20%26%20co")
        #expect(request.headers.contains("Authorization: Bearer t2"))
    }

    @Test func actionsThatNeedASignInAskForOneWithoutARequest() async throws {
        let harness = await ModelHarness<Ratings>(routes: [])
        await harness.start()
        await harness.perform(.fetchRating)
        #expect(await harness.model.state.error == "Sign in first.")
        #expect(await harness.journal.entries.isEmpty)
    }

    @Test func starsOutsideOneToFiveAreRefusedLocally() async throws {
        let harness = await ModelHarness<Ratings>(routes: [], seed: ["session": Self.session])
        await harness.start()
        await harness.perform(.rate(driver: 6, bus: 0))
        #expect(await harness.model.state.error == "Ratings are 1 to 5 stars; got driver 6, bus 0.")
        #expect(await harness.journal.entries.isEmpty)
    }

    @Test(arguments: [401, 403])
    func anAuthorisationFailureSignsOut(status: Int) async throws {
        let harness = await ModelHarness<Ratings>(routes: [
            Route(name: "rate", matcher: RequestMatcher(method: "POST", headers: ["Authorization": "Bearer t1"]),
                  outcomes: [answer(status, json: #"{"message":"Token revoked."}"#)]),
        ], seed: ["session": Self.session])
        await harness.start()
        #expect(await harness.model.state.user == "ann")
        await harness.perform(.rate(driver: 4, bus: 4))
        let state = await harness.model.state
        #expect(state.user == nil)
        #expect(state.error == "You were signed out: Token revoked.")
        #expect(await harness.store.keys().isEmpty)
    }

    @Test func anyOtherFailureKeepsTheUserSignedInAndShowsTheServersMessage() async throws {
        let harness = await ModelHarness<Ratings>(routes: [
            Route(name: "rating", matcher: RequestMatcher(method: "GET"), outcomes: [answer(500, json: #"{"message":"Database down."}"#)]),
        ], seed: ["session": Self.session])
        await harness.start()
        await harness.perform(.fetchRating)
        let state = await harness.model.state
        #expect(state.user == "ann")
        #expect(state.error == "The ratings service answered 500: Database down.")
    }

    @Test func aTransportErrorIsPresented() async throws {
        let harness = await ModelHarness<Ratings>(routes: [], seed: ["session": Self.session])
        await harness.start()
        await harness.perform(.fetchRating)
        #expect(await harness.model.state.error == "Could not reach the ratings service: The server refused the connection.")
    }
}
