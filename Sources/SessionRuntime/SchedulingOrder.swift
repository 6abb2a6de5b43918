import Fakes
import Synchronization

/// Which of several things ready at the same moment goes first: jobs ready on a session's executor, sleepers due
/// at the same instant. Without a seed, the first that became ready (the order scenariod always had); with one, a
/// choice drawn from the seed, so a seed names one interleaving and replays it.
public final class SchedulingOrder: Sendable {
    /// The seed of the choices; nil for first-ready-first.
    public let seed: UInt64?
    private let random: SeededRandom?

    /// The order `seed` chooses; nil keeps first-ready-first.
    public init(seed: UInt64? = nil) {
        self.seed = seed
        random = seed.map { SeededRandom(seed: $0) }
    }

    /// The index, in `0..<count`, of the one to take next of `count` things ready together, listed as they became
    /// ready.
    func pick(among count: Int) -> Int {
        guard count > 1, let random else { return 0 }
        return Int(random.next() % UInt64(count))
    }
}
