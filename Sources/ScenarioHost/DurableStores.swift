import ControlAPI
import Foundation
import LiveServices
import ScenarioFormat

/// The durable key-value stores: one SQLite file per scenario under `<state directory>/stores/`, opened on first
/// use and shared by every session of that scenario, so two sessions never hold the same file twice.
actor DurableStores {
    private let directory: URL?
    private var open: [String: SQLiteKeyValueStore] = [:]

    /// - Parameter stateDirectory: The daemon's state directory; nil when it has none (durable scenarios fail then).
    init(stateDirectory: URL?) {
        self.directory = stateDirectory?.appendingPathComponent("stores")
    }

    /// The store of `scenario`, created with its seed when the file is new.
    func store(for scenario: Scenario) async throws(HostError) -> SQLiteKeyValueStore {
        if let store = open[scenario.name] { return store }
        guard let directory else {
            throw HostError(.storeFailed, "scenario '\(scenario.name)' keeps its key-value state durable, but scenariod has no state directory; start it with --state-directory DIR (systemd sets $STATE_DIRECTORY).")
        }
        let path = directory.appendingPathComponent("\(scenario.name).sqlite").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try await SQLiteKeyValueStore.open(path: path, seed: scenario.seed)
            // Another session may have opened it while this one waited.
            if let winner = open[scenario.name] {
                await store.close()
                return winner
            }
            open[scenario.name] = store
            return store
        } catch {
            throw HostError(.storeFailed, "cannot open the durable store of scenario '\(scenario.name)' at \(path): \(error)")
        }
    }

    /// Closes every store.
    func closeAll() async {
        let stores = open.values
        open.removeAll()
        for store in stores { await store.close() }
    }
}
