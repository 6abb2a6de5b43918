import Services

/// A session's requests sent from outside that it still holds: those kept for reading later, bounded in number and
/// in the bytes of their answers, and those whose answers are still to come, so that a reset can end their waits.
/// Each send costs a constant amount here however many were sent before (a 100,000-request run is a test).
struct OutsideRequests {
    /// The most kept requests, and the most bytes their answers' bodies hold (a body shared with a fixture counts
    /// whole); past either, the oldest goes first.
    let limit: Int
    let byteLimit: Int

    /// Kept, oldest first, each with its answer's body size once delivered.
    private var kept: [(request: OutsideRequest, bytes: Int?)] = []
    private var keptBytes = 0
    /// Not kept and possibly still waiting; the answered ones are let go of when the list has doubled.
    private var waiting: [OutsideRequest] = []
    private var pruneWaitingAt = 64

    init(limit: Int, byteLimit: Int) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// Holds `request`: kept for reading later, or only until its answer comes.
    mutating func add(_ request: OutsideRequest, keep: Bool) {
        guard keep else {
            if request.result == nil { waiting.append(request) }
            if waiting.count > pruneWaitingAt {
                waiting.removeAll { $0.result != nil }
                pruneWaitingAt = max(64, 2 * waiting.count)
            }
            return
        }
        kept.append((request, nil))
        countArrivedAnswers()
        while kept.count > limit || (kept.count > 1 && keptBytes > byteLimit) {
            keptBytes -= kept.removeFirst().bytes ?? 0
        }
    }

    /// Counts the body of each kept answer that has come since the last count (a delayed one comes later).
    mutating func countArrivedAnswers() {
        for index in kept.indices where kept[index].bytes == nil {
            guard let result = kept[index].request.result else { continue }
            let bytes = (try? result.get())?.body.count ?? 0
            kept[index].bytes = bytes
            keptBytes += bytes
        }
    }

    /// The kept request of journal sequence number `sequence`.
    func kept(_ sequence: Int) -> OutsideRequest? {
        kept.first { $0.request.arrived?.sequence == sequence }?.request
    }

    /// The bytes of the kept requests' answers, as far as they have come (``HeldBytes/sent``).
    var bytes: Int { keptBytes }

    /// The kept requests' sequence numbers, oldest first.
    var keptSequences: [Int] { kept.compactMap { $0.request.arrived?.sequence } }

    /// Ends the wait of every request whose answer has not come, as the generation that would deliver it stops, and
    /// forgets them all: sequence numbers start again with the new generation.
    mutating func cancelAll() {
        for sent in kept.map(\.request) + waiting { sent.finish(.failure(.cancelled)) }
        kept = []
        keptBytes = 0
        waiting = []
    }
}
