public import Services

/// A property a walk checks after every step, written in Swift: what a test adds to a scenario's `properties.yaml`.
///
/// ```swift
/// let report = try await explore("offline-demo", walks: 200, properties: [
///     .always("no item without a title") { state in state.value(at: "/items")?.contains(["title": ""]) != true },
/// ])
/// ```
public struct WalkProperty: Sendable {
    /// Its name in reports.
    public let name: String
    let holds: @Sendable (JSONValue) -> Bool

    /// A property that must hold for the Model's state after every step.
    public static func always(_ name: String, _ holds: @escaping @Sendable (JSONValue) -> Bool) -> WalkProperty {
        WalkProperty(name: name, holds: holds)
    }

    /// A property that must never hold for the Model's state.
    public static func never(_ name: String, _ holds: @escaping @Sendable (JSONValue) -> Bool) -> WalkProperty {
        WalkProperty(name: name) { !holds($0) }
    }
}

/// The checks every walk makes whatever the scenario says.
public enum BuiltInProperty: String, Sendable, CaseIterable {
    /// The Model did no work its session cannot see or order (`modelEscaped`).
    case noModelEscape
    /// No step got a 5xx from the daemon (a Model that crashed, a fault of the daemon's own).
    case noServerError
    /// Every request matched a route; checked when the properties file says `fullCoverage: true`.
    case noUnansweredRequest
    /// The walk's steps, replayed in a new session, give byte-identical state.
    case replayIsIdentical
}

/// A property a walk broke: which, at which step, and why.
public struct PropertyFailure: Sendable, Hashable, Codable {
    /// The property's name (a built-in's is its case name).
    public var property: String
    /// The step after which it failed, from 1; 0 for the session's start.
    public var step: Int
    /// What was found: the values its condition read, or the error.
    public var detail: String
    /// Where the property is written, for one from a properties file.
    public var place: String?
}
