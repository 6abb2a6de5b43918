import Foundation
@testable import ScenarioFormat
import Synchronization
import Testing

/// The catalog's files are parsed on every core, the longest first, and their results come back in the catalog's order.
@Suite struct ConcurrentMapTests {
    @Test func heaviestFirstStartsTheHeaviestAndKeepsTheOrder() {
        // 10,000 elements whose weight is not their order: the results are each element's, at its own index.
        let elements = (0..<10_000).map { ($0 * 7_919) % 10_000 }
        let started = Mutex<[Int]>([])
        let results = ConcurrentMap.map(elements, heaviestFirst: { $0 }) { element in
            started.withLock { $0.append(element) }
            return element * 2
        }
        #expect(results == elements.map { $0 * 2 })
        let order = started.withLock { $0 }
        #expect(order.count == elements.count && Set(order).count == elements.count, "each element transformed once")
        // Dispatch hands the elements out in the order given, one per thread: the heaviest is among the first taken.
        let threads = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        #expect(order.prefix(threads).contains(9_999), "the heaviest started as \(order.firstIndex(of: 9_999).map { $0 + 1 } ?? 0)th")
    }
}
