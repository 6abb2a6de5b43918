import ScenarioFormat
import Services

/// What an exploration's counted walks add up to, taken in walk order one walk at a time, so that no walk's outcome
/// is kept once counted.
struct ExploreTally {
    /// Walks counted.
    private(set) var walks = 0
    private var steps = 0
    private var refused = 0
    private var kinds: [String: Int] = [:]
    private var routes: [String: Int]
    private var checks: [String: Int] = [:]

    /// A tally in which every route of the scenario counts, requested or not.
    init(routes: [String]) {
        self.routes = Dictionary(routes.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Counts the next walk.
    mutating func add(_ outcome: WalkRunner.Outcome) {
        walks += 1
        steps += outcome.steps.count
        refused += outcome.refused
        for step in outcome.steps { kinds[step.kind, default: 0] += 1 }
        for (route, count) in outcome.routes { routes[route, default: 0] += count }
        for (name, count) in outcome.checks { checks[name, default: 0] += count }
    }

    /// The report of the walks counted, its timings and failure left for the caller.
    func report(scenario: String, model: ModelDescription, settings: PropertiesFile, options: ExploreOptions) -> ExploreReport {
        var checks = checks
        checks[BuiltInProperty.noModelEscape.rawValue] = steps
        checks[BuiltInProperty.noServerError.rawValue] = steps
        var properties = BuiltInProperty.allCases.filter { $0 != .noUnansweredRequest || settings.fullCoverage }.map {
            ExploreReport.PropertyCount(name: $0.rawValue, kind: "builtIn", checks: checks[$0.rawValue] ?? 0)
        }
        properties += settings.properties.map { property in
            let kind = switch property.kind {
            case .always: "always"
            case .never: "never"
            case .eventually: "eventually"
            }
            return ExploreReport.PropertyCount(name: property.name, kind: kind, checks: checks[property.name] ?? 0)
        }
        properties += options.properties.map { ExploreReport.PropertyCount(name: $0.name, kind: "swift", checks: checks[$0.name] ?? 0) }
        return ExploreReport(
            scenario: scenario, model: model.name, seed: options.seed, walks: options.walks, walksRun: walks,
            stepsPerWalk: options.steps, steps: steps, refusedSteps: refused, stepKinds: kinds, routes: routes,
            routesNeverRequested: routes.filter { $0.value == 0 }.map(\.key).sorted(), properties: properties, failure: nil,
            seconds: 0, stepsPerSecond: 0)
    }
}
