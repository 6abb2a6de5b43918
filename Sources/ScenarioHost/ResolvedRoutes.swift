import Fakes
import ScenarioFormat
import Services
import Synchronization

/// Routes sessions set by name (`PUT …/routes/NAME`, a walk's route step), each resolved once: reading one reads
/// it as a scenario file would be read (a tenth of an exploration's time, profiled), and walks set the same few
/// again and again. Shared by a host's sessions; an entry is for one version of the catalog, one scenario and the
/// session's overrides, so a reload or other overrides resolve anew.
final class ResolvedRoutes: Sendable {
    struct Key: Hashable, Sendable {
        /// The catalog's version the session was created from.
        var generation: Int
        var scenario: String
        /// The session's overrides without its schedule seed, which no route depends on (each walk has its own).
        var overrides: JSONValue?
        var name: String
        var json: JSONValue
    }

    /// More than the distinct routes a suite sets, so its memory stays small.
    let memo = BoundedMemo<Key, Route>("resolved routes", count: 1024)
    private let catalogGeneration = Atomic(0)

    /// The catalog's version now.
    var generation: Int { catalogGeneration.load(ordering: .acquiring) }

    /// A reload made a new version of the catalog: no route resolved from the old one is used again.
    func startGeneration() {
        catalogGeneration.add(1, ordering: .releasing)
        memo.removeAll()
    }

    /// The route for `key`, resolved by `resolve` the first time.
    func route(for key: Key, resolve: () throws(HostError) -> Route) throws(HostError) -> Route {
        try memo.value(for: key, resolve)
    }
}
