import ScenarioHost
import Synchronization
import Testing

/// The engine's one memo (decoded actions, encoded states, resolved routes, parsed states): it gives back what it
/// made, keeps to its bounds however many keys pass through it, keeps what is in use when it must drop entries,
/// and counts what it did.
@Suite struct BoundedMemoTests {
    /// How many times each key's value was made.
    final class Makes: Sendable {
        let counts = Mutex<[Int: Int]>([:])
        func make(_ key: Int) -> String {
            counts.withLock { $0[key, default: 0] += 1 }
            return "value \(key)"
        }
        subscript(key: Int) -> Int { counts.withLock { $0[key] ?? 0 } }
    }

    @Test func aValueIsMadeOnceAndGivenBackWithItsFigures() {
        let memo = BoundedMemo<Int, String>("test", count: 100)
        let makes = Makes()
        for _ in 0..<5 {
            for key in 0..<10 { #expect(memo.value(for: key) { makes.make(key) } == "value \(key)") }
        }
        #expect((0..<10).allSatisfy { makes[$0] == 1 })
        let figures = memo.figures
        #expect([figures.hits, figures.misses, figures.evictions, figures.entries, figures.bytes] == [40, 10, 0, 10, 0])
        #expect(figures.description == "test: 40 hits, 10 misses, 0 generations dropped, 10 entries of 0 bytes")
    }

    @Test func aHundredThousandKeysStayWithinTheCountAndAKeyInUseIsNeverMadeAgain() {
        let memo = BoundedMemo<Int, String>("test", count: 1_000)
        let makes = Makes()
        let hot = -1
        for key in 0..<100_000 {
            _ = memo.value(for: key) { makes.make(key) }
            _ = memo.value(for: hot) { makes.make(hot) }
            #expect(memo.figures.entries <= 1_000)
        }
        // A table cleared whole when full made the hot key again after each clearing: 199 times here.
        #expect(makes[hot] == 1)
        let figures = memo.figures
        #expect(figures.evictions >= 100_000 / 500 - 1)
        #expect(figures.misses == 100_001)
        #expect(figures.hits == 99_999)
    }

    @Test func bytesStayWithinTheBoundAndAValueLargerThanAGenerationIsNotKept() {
        let memo = BoundedMemo<Int, String>("test", count: 1 << 20, bytes: 10_000) { _, value in value.utf8.count }
        for key in 0..<100_000 {
            _ = memo.value(for: key) { String(repeating: "x", count: 100) }
            #expect(memo.figures.bytes <= 10_000)
        }
        #expect(memo.figures.entries >= 50)
        let makes = Makes()
        let big = { (key: Int) in String(repeating: "y", count: 6_000) + makes.make(key) }
        _ = memo.value(for: -1, { big(-1) })
        _ = memo.value(for: -1, { big(-1) })
        #expect(makes[-1] == 2)
    }

    @Test func removeAllForgetsEveryEntryButNotTheFigures() {
        let memo = BoundedMemo<Int, String>("test", count: 4)
        let makes = Makes()
        for key in 0..<3 { _ = memo.value(for: key) { makes.make(key) } }
        memo.removeAll()
        #expect(memo.figures.entries == 0)
        for key in 0..<3 { _ = memo.value(for: key) { makes.make(key) } }
        #expect((0..<3).allSatisfy { makes[$0] == 2 })
        #expect(memo.figures.misses == 6)
    }

    @Test func aThrowingMakeKeepsNothing() {
        struct Refused: Error {}
        let memo = BoundedMemo<Int, String>("test", count: 4)
        #expect(throws: Refused.self) { try memo.value(for: 1) { () throws(Refused) in throw Refused() } }
        #expect(memo.value(for: 1) { "made" } == "made")
        #expect(memo.figures.entries == 1)
    }

    @Test func tasksSharingOneMemoGetTheirOwnKeysValuesAndEveryLookupIsCounted() async {
        let memo = BoundedMemo<Int, String>("test", count: 256)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<20_000 {
                        let key = (task * 7 + step) % 1_000
                        if memo.value(for: key, { "value \(key)" }) != "value \(key)" { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        let figures = memo.figures
        #expect(figures.hits + figures.misses == 160_000)
        #expect(figures.entries <= 256)
    }
}
