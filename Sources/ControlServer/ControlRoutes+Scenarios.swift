import ControlAPI
import Foundation
import Hummingbird
import ScenarioFormat

extension ControlRoutes {
    func addScenarioRoutes(to router: Router<BasicRequestContext>) {
        router.get("/v1/scenarios") { _, _ in
            let catalog = await host.catalog
            return JSONResponse.make(catalog.names.map { name in
                let scenario = catalog.scenarios[name]
                return ScenarioSummary(name: name, description: scenario?.description, model: scenario?.model,
                                       valid: scenario != nil, problems: (catalog.problems[name] ?? []).map(\.description))
            })
        }
        router.get("/v1/scenarios/:scenario") { _, context in
            let scenario = try await host.scenario(named: try context.parameters.require("scenario"))
            return JSONResponse.make(ScenarioDetail(scenario))
        }
        router.post("/v1/scenarios/reload") { request, _ in
            _ = try await JSONBody.value(of: request)
            let catalog = await configuration.reload()
            return JSONResponse.make(ReloadBody(scenarios: catalog.scenarios.count, invalid: catalog.problems.keys.sorted()))
        }
    }
}

extension ScenarioDetail {
    init(_ scenario: Scenario) {
        self.init(
            name: scenario.name, description: scenario.description, model: scenario.model, directory: scenario.directory.path,
            extends: scenario.ancestors, clockStart: scenario.clock.start, clockMode: scenario.clock.mode.rawValue,
            seedKeys: scenario.seed.keys.sorted(),
            routes: scenario.routes.map { route in
                let url: String? = switch route.matcher.url {
                case .exact(let url): url
                case .pattern(let pattern): "~ \(pattern.source)"
                case nil: nil
                }
                return RouteSummary(name: route.name, method: route.matcher.method, url: url, outcomes: route.outcomes.count)
            },
            unmatched: scenario.unmatched.rawValue)
    }
}
