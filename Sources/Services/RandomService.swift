public import Foundation

/// Randomness: identifiers, choices and shuffles. A Model that calls `UUID()`, `Int.random(in:)` or `shuffled()`
/// directly is not deterministic; one that takes them from this service is, because a scenario seeds the fake
/// (`random: { seed: 42 }`) and the same seed and actions give the same values, session beside session.
///
/// Implementations provide 64 random bits at a time; everything else is built on ``next()`` here, so a fake and
/// the live service derive identifiers and choices the same way.
public protocol RandomService: Sendable {
    /// 64 uniformly random bits.
    func next() -> UInt64
}

extension RandomService {
    /// A random version 4 UUID (RFC 9562): 122 random bits, the version and variant bits set.
    public func uuid() -> UUID {
        let high = next(), low = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A random integer in `range`.
    public func int(in range: Range<Int>) -> Int {
        var generator = generator
        return Int.random(in: range, using: &generator)
    }

    /// A random integer in `range`.
    public func int(in range: ClosedRange<Int>) -> Int {
        var generator = generator
        return Int.random(in: range, using: &generator)
    }

    /// A random number in `range`.
    public func double(in range: Range<Double>) -> Double {
        var generator = generator
        return Double.random(in: range, using: &generator)
    }

    /// A random element of `collection`, or nil when it is empty.
    public func element<C: Collection>(of collection: C) -> C.Element? {
        var generator = generator
        return collection.randomElement(using: &generator)
    }

    /// The elements of `sequence` in a random order.
    public func shuffled<S: Sequence>(_ sequence: S) -> [S.Element] {
        var generator = generator
        return sequence.shuffled(using: &generator)
    }

    /// A generator for the standard library's `using:` APIs (`Double.random(in:using:)`, `shuffle(using:)`).
    public var generator: RandomServiceGenerator { RandomServiceGenerator(service: self) }
}

/// This service as a `RandomNumberGenerator`, so every standard-library API that takes one draws from it.
public struct RandomServiceGenerator: RandomNumberGenerator {
    /// The service the bits come from.
    public let service: any RandomService

    /// A generator drawing from `service`.
    public init(service: any RandomService) {
        self.service = service
    }

    /// The next 64 bits of the service.
    public mutating func next() -> UInt64 { service.next() }
}
