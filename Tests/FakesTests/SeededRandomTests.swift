import Fakes
import Foundation
import Services
import Testing

@Suite struct SeededRandomTests {
    @Test func theSameSeedGivesTheSameValuesAndAnotherSeedOthers() {
        let first = SeededRandom(seed: 42), second = SeededRandom(seed: 42), other = SeededRandom(seed: 43)
        let a = (0..<100).map { _ in first.next() }
        #expect(a == (0..<100).map { _ in second.next() })
        #expect(a != (0..<100).map { _ in other.next() })
        #expect(Set(a).count == 100)
    }

    @Test func identifiersAreVersion4UUIDsAndRepeatWithTheSeed() {
        let ids = (0..<3).map { _ in SeededRandom(seed: 7).uuid() }
        #expect(Set(ids).count == 1)
        let text = ids[0].uuidString
        #expect(Array(text)[14] == "4", "version 4: \(text)")
        #expect("89AB".contains(Array(text)[19]), "RFC 9562 variant: \(text)")
        let random = SeededRandom(seed: 7)
        #expect(random.uuid() != random.uuid())
    }

    @Test func choicesStayInRangeAndFollowTheSeed() {
        let random = SeededRandom(seed: 1)
        let draws = (0..<1_000).map { _ in random.int(in: 1...6) }
        #expect(Set(draws) == Set(1...6))
        let again = SeededRandom(seed: 1)
        #expect(draws == (0..<1_000).map { _ in again.int(in: 1...6) })
        #expect(SeededRandom(seed: 3).shuffled(1...10).sorted() == Array(1...10))
        #expect(SeededRandom(seed: 3).shuffled(1...10) == SeededRandom(seed: 3).shuffled(1...10))
        let unit = (0..<100).map { _ in random.double(in: 0..<1) }
        #expect(unit.allSatisfy { (0..<1).contains($0) })
    }
}
