import ControlAPI
import Foundation
import Hummingbird
import ScenarioClient
import ScenarioExplore
import ScenarioFormat
import ScenarioHost
import ServiceLifecycle
import Services

extension ControlRoutes {
    /// Explorations run on the daemon's engine: started, listed, followed as server-sent events, cancelled.
    func addExplorationRoutes(to router: EndpointRouter) {
        router.post("/v1/explorations") { request, context in
            let body = try await JSONBody.decode(ExplorationRequest.self, from: request, fields: [
                "scenario", "walks", "steps", "seed", "parallelism", "properties", "overrides", "shrinkBudget", "saveScenario",
            ], required: ["scenario"])
            return JSONResponse.make(try explorations.start(try await explorer(for: body), logger: context.logger), status: .created)
        }
        router.get("/v1/explorations") { _, _ in
            JSONResponse.make(ExplorationList(explorations: explorations.all))
        }
        router.get("/v1/explorations/:exploration") { _, context in
            JSONResponse.make(try explorations.exploration(try parameter("exploration", of: context)))
        }
        router.get("/v1/explorations/:exploration/events") { _, context in
            let updates = try explorations.follow(try parameter("exploration", of: context))
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    var number = 0
                    for await exploration in updates.cancelOnGracefulShutdown() {
                        number += 1
                        try await writer.write(EventStream.frame(named: "exploration", id: number, exploration))
                    }
                    try await writer.finish(nil)
                })
        }
        router.delete("/v1/explorations/:exploration") { _, context in
            JSONResponse.make(try await explorations.cancel(try parameter("exploration", of: context)))
        }
    }

    /// An explorer of what `body` asks for, on this daemon's engine; everything it could refuse is refused here, before
    /// anything runs.
    private func explorer(for body: ExplorationRequest) async throws -> Explorer {
        let defaults = ExploreOptions()
        let walks = body.walks ?? defaults.walks, steps = body.steps ?? defaults.steps
        for (name, value, least) in [("walks", walks, 1), ("steps", steps, 1), ("parallelism", body.parallelism ?? 1, 1), ("shrinkBudget", body.shrinkBudget ?? 0, 0)]
        where value < least {
            throw APIError(.badRequest, .invalidRequest, "'\(name)' is \(value); it must be at least \(least).")
        }
        let (total, overflow) = walks.multipliedReportingOverflow(by: steps)
        guard !overflow, total <= configuration.explorations.steps else {
            throw APIError(.unprocessableContent, .explorationTooLong, "\(walks) walks of \(steps) steps is more than the \(configuration.explorations.steps) steps this daemon runs in one exploration (--max-exploration-steps); ask for fewer walks or steps.")
        }
        let scenario = try await host.scenario(named: body.scenario, overrides: body.overrides)
        if let properties = body.properties {
            let model = host.models.descriptions.first { $0.name == scenario.model }
            do {
                _ = try PropertiesFile.parse(properties.text, file: properties.file, model: model)
            } catch {
                throw APIError(.badRequest, .invalidRequest, error.summary)
            }
        }
        var options = ExploreOptions(
            walks: walks, steps: steps, seed: body.seed ?? defaults.seed, parallelism: body.parallelism ?? defaults.parallelism,
            propertiesFile: body.properties.map { URL(fileURLWithPath: $0.file) }, overrides: body.overrides,
            shrinkBudget: body.shrinkBudget ?? defaults.shrinkBudget, saveFailureAs: body.saveScenario)
        options.propertiesText = body.properties?.text
        // The explorer describes the scenario and saves a failing session through this daemon's own API, answered in
        // process; its walks run straight on the engine.
        let client = ControlClient(transport: InProcessTransport(responder: ControlResponder(host: host, configuration: configuration)))
        return Explorer(client: client, target: EngineWalkTarget(host: host, client: client), scenario: body.scenario, options: options)
    }
}
