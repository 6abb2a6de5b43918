public import Services

/// The system's cryptographically secure generator (`getrandom(2)` on Linux): the live ``RandomService``.
public struct SystemRandom: RandomService {
    /// The system generator.
    public init() {}

    /// 64 bits from the system.
    public func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}
