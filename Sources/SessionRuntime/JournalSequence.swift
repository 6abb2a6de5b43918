import Fakes
import Services
import Synchronization

/// Numbers a session's journal entries 1, 2, 3… in arrival order, across the network fake and the fakes of a
/// team's services, so that one sequence orders everything the Model did.
public final class JournalSequence: Sendable {
    private let last = Mutex(0)

    /// A sequence whose first number is 1.
    public init() {}

    /// The next number.
    public func next() -> Int {
        last.withCheckedLock { last in
            last += 1
            return last
        }
    }
}
