import Dispatch

/// `map` over the cores: the scenario files of a catalog are read and parsed independently of each other.
enum ConcurrentMap {
    /// `transform` of each element, in order, computed on as many threads as Dispatch gives.
    ///
    /// `transform` runs on several threads at once, so it may only read what it shares with the other calls (the
    /// catalog's callers read immutable dictionaries and the lock-protected ``FixtureReader``) and write its own
    /// values: each element, and what its call builds (a file's YAML nodes), belongs to one call alone.
    static func map<Element, Result>(_ elements: [Element], _ transform: (Element) -> Result) -> [Result] {
        guard elements.count > 1 else { return elements.map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            let work = Work(elements: elements, transform: transform)
            DispatchQueue.concurrentPerform(iterations: elements.count) { index in work.run(index) }
            return work.results()
        }
    }

    /// `transform` of each element, in order, started heaviest first by `weight`: an element that takes long, started
    /// last, would run alone while the other cores wait (a scenario that makes a GraphQL schema is the longest of a
    /// start's load, and its name sorts near the end).
    static func map<Element, Result>(_ elements: [Element], heaviestFirst weight: (Element) -> Int,
                                      _ transform: (Element) -> Result) -> [Result] {
        let order = elements.indices.sorted { weight(elements[$0]) > weight(elements[$1]) }
        var results = [Result?](repeating: nil, count: elements.count)
        for (index, result) in zip(order, map(order) { transform(elements[$0]) }) { results[index] = result }
        return results.map { $0! }
    }

    /// The elements, the transform and one result slot per element. `@unchecked Sendable` because of the contract
    /// above: the elements are only read, each slot is written by exactly one iteration, and the slots are read only
    /// after `concurrentPerform` has returned, which happens after every iteration.
    private final class Work<Element, Result>: @unchecked Sendable {
        private let elements: [Element]
        private let transform: (Element) -> Result
        // Memory of its own rather than an array: writing an array's element from several threads is a race even
        // at distinct indices (the array is mutated as a whole).
        private let slots: UnsafeMutableBufferPointer<Result?>

        init(elements: [Element], transform: @escaping (Element) -> Result) {
            self.elements = elements
            self.transform = transform
            slots = .allocate(capacity: elements.count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func run(_ index: Int) { slots[index] = transform(elements[index]) }

        func results() -> [Result] { slots.map { $0! } }
    }
}
