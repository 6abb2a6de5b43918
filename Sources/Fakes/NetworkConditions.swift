public import Services

/// What a running session's network is switched into, as a browser's developer tools throttle a page: offline,
/// failing every request with a fault, or adding a delay to every answer. Set through the control API; a reset
/// returns the session to its scenario's network.
public struct NetworkConditions: Sendable, Hashable, CustomStringConvertible {
    /// Every request fails with `offline`, whatever route would answer.
    public var offline: Bool
    /// Every request fails with this transport error instead of its answer.
    public var fault: TransportError?
    /// Added to every answer's delay, on the session's clock (live answers wait it before they are sent).
    public var delay: Duration

    /// Conditions that take the network offline, fail every request with `fault`, or delay every answer by
    /// `delay`; with no arguments, the scenario's own network (``normal``).
    public init(offline: Bool = false, fault: TransportError? = nil, delay: Duration = .zero) {
        self.offline = offline
        self.fault = fault
        self.delay = delay
    }

    /// The scenario's own network.
    public static let normal = NetworkConditions()

    /// The error every request gets instead of its answer, if any.
    public var failure: TransportError? { offline ? .offline : fault }

    /// `offline`, `fault timeout`, `delay 2s`, `fault timeout, delay 2s` or `normal`.
    public var description: String {
        var parts: [String] = []
        if offline { parts.append("offline") } else if let fault { parts.append("fault \(fault.rawValue)") }
        if delay > .zero { parts.append("delay \(DurationText.format(delay))") }
        return parts.isEmpty ? "normal" : parts.joined(separator: ", ")
    }
}
