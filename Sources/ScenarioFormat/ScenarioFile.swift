import Fakes
import Foundation
import Services

/// One `scenario.yaml` as written, before `extends` is resolved. Fixture paths are already read, relative to this
/// file's own directory, so merging with a parent is plain data.
struct ScenarioFile {
    /// A value and where it was written.
    struct Located<Value> {
        var value: Value
        var line: Int?
        var column: Int?
    }

    var name: String
    var path: String
    var directory: URL
    var description: String?
    var model: Located<String>?
    var extends: Located<String>?
    var clock: ClockSettings?
    var seed: [String: Data] = [:]
    /// Whether `seed` merges over the parent's (the default) or replaces it (`keyValue.inheritSeed: false`).
    var inheritsSeed = true
    var unmatched: TransportError?
    var routes: [Route] = []
    /// Changes to routes of the scenario this one extends, in the order written.
    var routePatches: [RoutePatch] = []
    var keyValueStore: KeyValueStoreKind?
    var networkMode: Located<NetworkSettings.Mode>?
    var connectTimeout: Duration?
    var readTimeout: Duration?
    var redirects: Int?
    var forward: [String: String] = [:]
    var redact: [String] = []
    /// Each `after:` of a causal route, where it was written, for the check that the route it names exists.
    var causalLinks: [CausalLink] = []

    struct CausalLink {
        var route: String
        var after: String
        var line: Int?
        var column: Int?
    }
    /// Where `network.forward` was written, for the check that something uses it.
    var forwardPlace: Located<Void>?
    var random: RandomSettings?
    var scheduleSeed: UInt64?
    /// The sections of a team's services, as written: a mapping of fake state, or `live`.
    var serviceSections: [String: ServiceSection] = [:]

    /// A team service's section as written.
    enum ServiceSection {
        case state(LocatedValue)
        case live
    }

    /// The keys a scenario file may have at its top level.
    static let topLevelKeys = ["description", "model", "extends", "clock", "keyValue", "random", "schedule", "network"]
}
