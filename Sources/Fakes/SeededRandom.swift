public import Services
import Synchronization

/// Randomness from a seed: the same seed gives the same sequence of values, run after run, so identifiers and
/// choices a Model takes from ``/Services/RandomService`` are deterministic. xoshiro256** (Blackman and Vigna), its state
/// filled from the seed by SplitMix64 as its authors recommend; written here because the standard library has no
/// seedable generator and the algorithm is twenty lines.
public final class SeededRandom: RandomService {
    /// The seed the sequence starts from.
    public let seed: UInt64
    private let state: Mutex<(UInt64, UInt64, UInt64, UInt64)>

    /// A generator at the start of `seed`'s sequence.
    public init(seed: UInt64) {
        self.seed = seed
        var mix = seed
        func splitMix() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = Mutex((splitMix(), splitMix(), splitMix(), splitMix()))
    }

    /// The next 64 bits of the sequence.
    public func next() -> UInt64 {
        state.withCheckedLock { s in
            let result = rotate(s.1 &* 5, 7) &* 9
            let t = s.1 << 17
            s.2 ^= s.0
            s.3 ^= s.1
            s.1 ^= s.2
            s.0 ^= s.3
            s.2 ^= t
            s.3 = rotate(s.3, 45)
            return result
        }
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
