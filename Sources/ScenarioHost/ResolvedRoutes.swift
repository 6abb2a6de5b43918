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

    private let table = Mutex<(generation: Int, routes: [Key: Route])>((0, [:]))

    /// More than the distinct routes a suite sets; past it the table starts over, so its memory stays small.
    private var capacity: Int { 512 }

    /// The catalog's version now.
    var generation: Int { table.withCheckedLock(\.generation) }

    /// A reload made a new version of the catalog.
    func startGeneration() {
        table.withCheckedLock { $0 = ($0.generation + 1, [:]) }
    }

    /// The route for `key`, resolved by `resolve` the first time.
    func route(for key: Key, resolve: () throws(HostError) -> Route) throws(HostError) -> Route {
        if let route = table.withCheckedLock({ $0.routes[key] }) { return route }
        let route = try resolve()
        table.withCheckedLock { table in
            if table.routes.count >= capacity { table.routes.removeAll() }
            table.routes[key] = route
        }
        return route
    }
}
