public import Foundation
public import Fakes

/// What a listing shows of a session.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The session's id.
    public var id: String
    /// The scenario it runs.
    public var scenario: String
    /// The Model the scenario runs.
    public var model: String
    /// The session's clock.
    public var now: Date
    /// Entries in its journal, and how many of them matched no route.
    public var requests: Int
    public var unmatchedRequests: Int
    /// Work of the Model the session could not see or order, oldest first.
    public var escapes: [ModelEscape]
    /// What its stores hold, in bytes.
    public var held: HeldBytes
}
