public import Foundation
public import Services
import HTTPTypes

/// Model #2: a client that rates the driver and the bus of a ride, with a sign-in token kept in the key-value store.
///
/// Any 2xx answer is success. A 401 or 403 signs the user out (the token is removed) and shows the server's
/// message when its body has one.
public actor Ratings: Model {
    public static let name = "Ratings"
    public static let actionNames = ["signIn", "fetchRating", "rate"]

    /// The service's API root.
    public static let apiBase = URL(string: "https://api.busratings.example/v1")!
    /// The key-value key under which the signed-in session (`{"user": …, "token": …}`) is kept.
    public static let sessionKey = "session"
    public static let keyValueKeys = [sessionKey: "the signed-in user and token, {\"user\": …, \"token\": …}; absent when signed out"]

    /// What a client may ask of the rating client.
    public enum Action: Decodable, Sendable {
        /// Sign in; the returned token is stored.
        case signIn(user: String, password: String)
        /// Fetch the signed-in user's rating summary (`GET …/rating?user=NAME`).
        case fetchRating
        /// Rate the ride's driver and bus, 1 to 5 stars each.
        case rate(driver: Int, bus: Int)
    }

    private let services: ModelServices
    private let api: RatingsAPI
    public private(set) var state = RatingsState()

    public init(services: ModelServices) {
        self.services = services
        self.api = RatingsAPI(base: Self.apiBase)
    }

    public func run() async {
        do {
            let session = try await services.keyValue.value(SignedInSession.self, forKey: Self.sessionKey)
            state.user = session?.user
        } catch {
            state.error = "The saved sign-in is unreadable; sign in again."
        }
    }

    public func perform(_ action: Action) async {
        state.isBusy = true
        defer { state.isBusy = false }
        switch action {
        case .signIn(let user, let password): await signIn(user: user, password: password)
        case .fetchRating: await fetchRating()
        case .rate(let driver, let bus): await rate(driver: driver, bus: bus)
        }
    }

    private func signIn(user: String, password: String) async {
        guard let response = await send(api.signIn(user: user, password: password)) else { return }
        guard let body = try? JSONDecoder.services.decode(RatingsAPI.TokenBody.self, from: response.body) else {
            state.error = "The sign-in answer had no token."
            return
        }
        do {
            try await services.keyValue.set(SignedInSession(user: user, token: body.token), forKey: Self.sessionKey)
            state.user = user
            state.error = nil
        } catch {
            state.error = "Could not save the sign-in: \(error)"
        }
    }

    private func fetchRating() async {
        guard let session = await signedInSession() else { return }
        guard let response = await send(api.rating(user: session.user, token: session.token)) else { return }
        guard let rating = try? JSONDecoder.services.decode(RatingSummary.self, from: response.body) else {
            state.error = "The rating answer could not be read."
            return
        }
        state.rating = rating
        state.error = nil
    }

    private func rate(driver: Int, bus: Int) async {
        guard (1...5).contains(driver), (1...5).contains(bus) else {
            state.error = "Ratings are 1 to 5 stars; got driver \(driver), bus \(bus)."
            return
        }
        guard let session = await signedInSession() else { return }
        guard await send(api.rate(driver: driver, bus: bus, token: session.token)) != nil else { return }
        state.lastSubmitted = Submission(driver: driver, bus: bus)
        state.error = nil
    }

    private func signedInSession() async -> SignedInSession? {
        let session = try? await services.keyValue.value(SignedInSession.self, forKey: Self.sessionKey)
        guard let session else {
            state.user = nil
            state.error = "Sign in first."
            return nil
        }
        return session
    }

    /// Sends `request`; returns the response when it is a 2xx, otherwise sets the error (signing out on 401/403).
    private func send(_ request: NetworkRequest) async -> NetworkResponse? {
        let response: NetworkResponse
        do {
            response = try await services.network.send(request)
        } catch {
            state.error = "Could not reach the ratings service: \(error)"
            return nil
        }
        let status = response.head.status
        if (200..<300).contains(status.code) { return response }
        let serverMessage = (try? JSONDecoder.services.decode(RatingsAPI.ErrorBody.self, from: response.body))?.message
        if status.code == 401 || status.code == 403 {
            try? await services.keyValue.removeValue(forKey: Self.sessionKey)
            state.user = nil
            state.rating = nil
            state.error = "You were signed out: " + (serverMessage ?? "the server refused the sign-in (\(status.code)).")
        } else {
            state.error = "The ratings service answered \(status.codeAndReason)"
                + (serverMessage.map { ": \($0)" } ?? ".")
        }
        return nil
    }
}
