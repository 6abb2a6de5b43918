import Fakes
public import Foundation
public import Services

/// An in-memory key-value store that starts from a scenario's seed. Resetting a session makes a new one.
public actor SeededKeyValueStore: KeyValueService {
    private var values: [String: Data]

    /// Creates a store holding `seed` (JSON bytes by key).
    public init(seed: [String: Data]) {
        self.values = seed
    }

    public func keys() -> [String] { values.keys.sorted() }
    public func data(forKey key: String) -> Data? { values[key] }
    public func setData(_ data: Data, forKey key: String) { values[key] = data }
    public func removeValue(forKey key: String) { values[key] = nil }
}
