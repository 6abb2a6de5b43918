import ControlAPI
import Fakes
import Foundation
import Hummingbird
import ScenarioFormat
import ScenarioHost
import Services

extension ControlRoutes {
    func addScenarioRoutes(to router: EndpointRouter) {
        router.get("/v1/scenarios") { _, _ in
            let catalog = await host.catalog
            return JSONResponse.make(catalog.names.map { name in
                let scenario = catalog.scenarios[name]
                return ScenarioSummary(name: name, description: scenario?.description, model: scenario?.model,
                                       valid: scenario != nil, problems: (catalog.problems[name] ?? []).map(\.description))
            })
        }
        let services = host.models.services
        router.get("/v1/scenarios/:scenario") { _, context in
            let scenario = try await host.scenario(named: try parameter("scenario", of: context))
            return JSONResponse.make(ScenarioDetail(scenario, services: services))
        }
        router.get("/v1/scenarios/:scenario/file") { _, context in
            let name = try parameter("scenario", of: context)
            let catalog = await host.catalog
            guard let directory = catalog.directories[name] else {
                // The same answer as for showing it, with its suggestion.
                _ = try await host.scenario(named: name)
                throw APIError(.notFound, .unknownScenario, "there is no scenario '\(name)'.")
            }
            let path = directory.appendingPathComponent(ScenarioCatalog.fileName).path
            // Read now, as it is on disk: a file with problems, or one changed since the last reload, shows as it is.
            guard let data = FileManager.default.contents(atPath: path) else {
                throw APIError(.notFound, .unknownScenario, "the file of scenario '\(name)', \(path), cannot be read now; it may have been removed since the daemon last read its scenarios (scenarioctl reload).")
            }
            return JSONResponse.make(ScenarioFileBody(scenario: name, path: path, text: String(decoding: data, as: UTF8.self)))
        }
        router.post("/v1/sessions/:session/recording") { request, context in
            let body = try await JSONBody.decode(SaveRecordingRequest.self, from: request, fields: ["name", "keepSecrets"], required: ["name"])
            let saved = try await host.saveRecording(of: try parameter("session", of: context), as: body.name,
                                                     keepSecrets: body.keepSecrets ?? false)
            try await reloadWithSaved(body.name, in: saved.directory)
            return JSONResponse.make(SavedRecordingBody(scenario: body.name, directory: saved.directory.path,
                                                        routes: saved.routes, files: saved.files), status: .created)
        }
        router.post("/v1/sessions/:session/save") { request, context in
            let body = try await JSONBody.decode(SaveSessionRequest.self, from: request, fields: ["name", "description"], required: ["name"])
            let session = try await session(context)
            let directory = try await host.saveSession(session.id, as: body.name, description: body.description)
            try await reloadWithSaved(body.name, in: directory)
            return JSONResponse.make(SavedSessionBody(scenario: body.name, directory: directory.path, extends: session.scenario.name),
                                     status: .created)
        }
        router.post("/v1/scenarios/reload") { request, _ in
            _ = try await JSONBody.value(of: request)
            let catalog = await configuration.reload()
            return JSONResponse.make(ReloadBody(scenarios: catalog.validCount, invalid: catalog.invalid,
                                                servingLastGood: catalog.servingLastGood))
        }
    }
}

extension ScenarioDetail {
    typealias LiveSettings = ScenarioDetail.LiveSettings

    /// The scenario as resolved, with where each setting came from and each of `services`' resolved fake state.
    init(_ scenario: Scenario, services: [ServiceDefinition]) {
        var states: [String: JSONValue] = [:]
        for service in services {
            if case .fake(let state)? = scenario.services[service.name] { states[service.name] = service.encode(state) }
        }
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
                let answers = route.outcomes.map { outcome in
                    var answer = ScenarioDetail.Answer(delay: outcome.delay == .zero ? nil : DurationText.format(outcome.delay),
                                                       after: outcome.after.map { $0.times == 1 ? $0.route : "\($0.route) ×\($0.times)" },
                                                       streams: outcome.webSocket != nil ? "webSocket" : outcome.stream != nil ? "stream" : nil)
                    switch outcome.result {
                    case .response(let response): answer.status = response.head.status.code
                    case .fault(let error): answer.fault = error.rawValue
                    }
                    return answer
                }
                return RouteSummary(name: route.name, method: route.matcher.method, url: url, live: route.isLive ? true : nil,
                                    answers: answers, afterLast: route.afterLast.rawValue)
            },
            unmatched: scenario.unmatched.rawValue, network: scenario.network.mode.rawValue,
            keyValueStore: scenario.keyValueStore.rawValue,
            random: scenario.random.description,
            services: scenario.services.mapValues { setting in
                if case .live = setting { return "live" }
                return "fake"
            },
            live: scenario.usesLiveNetwork ? LiveSettings(
                connectTimeout: DurationText.format(scenario.network.connectTimeout),
                readTimeout: DurationText.format(scenario.network.readTimeout),
                redirects: scenario.network.redirects, forward: scenario.network.forward) : nil,
            clockTimeZone: scenario.clock.timeZone, sources: scenario.sources, serviceStates: states)
    }
}

extension ControlRoutes {
    /// Reloads the catalog so a scenario just written into `directory` can be used at once; it must load.
    func reloadWithSaved(_ name: String, in directory: URL) async throws {
        let catalog = await configuration.reload()
        guard catalog.scenarios[name] != nil else {
            let problems = (catalog.problems[name] ?? []).map(\.description).joined(separator: "; ")
            throw APIError(.internalServerError, .saveFailed, "scenario '\(name)' was written to \(directory.path) but does not load: \(problems). Please report this.")
        }
    }
}
