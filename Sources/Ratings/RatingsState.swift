/// Everything a client sees of a ``Ratings`` Model.
public struct RatingsState: Codable, Sendable, Hashable {
    /// The signed-in user, or nil when signed out.
    public var user: String?
    /// The user's rating summary, once fetched.
    public var rating: RatingSummary?
    /// The last rating the service accepted.
    public var lastSubmitted: Submission?
    /// True while a request is in flight.
    public var isBusy = false
    /// A sentence to show the user about the last failure, or nil.
    public var error: String?

    /// A signed-out state.
    public init() {}
}

/// The service's summary of a user's ratings.
public struct RatingSummary: Codable, Sendable, Hashable {
    public var average: Double
    public var count: Int
}

/// A rating as submitted.
public struct Submission: Codable, Sendable, Hashable {
    public var driver: Int
    public var bus: Int
}

/// What the key-value store keeps while a user is signed in.
struct SignedInSession: Codable {
    var user: String
    var token: String
}
