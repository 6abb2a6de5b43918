import ControlAPI
import Fakes
import Foundation
import Hummingbird
import ScenarioHost
import Services

extension ControlRoutes {
    func addSessionRoutes(to router: EndpointRouter) {
        router.post("/v1/sessions") { request, _ in
            let value = try await JSONBody.value(of: request)
            let body = try JSONBody.decode(CreateSessionRequest.self, from: value, fields: ["scenario", "id", "overrides", "endpoint"], required: ["scenario"])
            let endpoint = try value.value(at: "/endpoint").map(SessionEndpoint.asked)
            let session = try await host.createSession(of: body.scenario, id: body.id, overrides: body.overrides)
            if let endpoint {
                do {
                    _ = try await SessionEndpoint.open(endpoint, for: session, configuration: configuration, logger: session.logger)
                } catch {
                    // A session without the endpoint it was asked for is not what the client wanted: none is made.
                    try? await host.deleteSession(session.id)
                    throw error
                }
            }
            return JSONResponse.make(try await SessionBody(session), status: .created)
        }
        router.get("/v1/sessions") { _, _ in
            var bodies: [SessionBody] = []
            for session in await host.openSessions() {
                // A session deleted while listing is skipped, not an error.
                if let body = try? await SessionBody(session) { bodies.append(body) }
            }
            return JSONResponse.make(bodies)
        }
        router.get("/v1/sessions/:session") { _, context in
            JSONResponse.make(try await SessionBody(try await session(context)))
        }
        router.delete("/v1/sessions/:session") { _, context in
            try await host.deleteSession(try parameter("session", of: context))
            return JSONResponse.noContent()
        }
        router.post("/v1/sessions/:session/reset") { request, context in
            _ = try await JSONBody.value(of: request)
            let session = try await session(context)
            try await session.reset()
            return JSONResponse.make(try await SessionBody(session))
        }
    }
}

extension SessionBody {
    init(_ session: Session) async throws {
        let info = try await session.info()
        self.init(id: info.id, scenario: info.scenario, model: info.model, now: info.now,
                  requests: info.requests, unmatchedRequests: info.unmatchedRequests, escapes: info.escapes.map(ModelEscapeBody.init),
                  held: HeldBytesBody(journal: info.held.journal, history: info.held.history, events: info.held.events,
                                      recording: info.held.recording, sent: info.held.sent),
                  endpoint: await session.attachment(SessionEndpoint.self)?.body)
    }
}

extension ModelEscapeBody {
    init(_ escape: ModelEscape) {
        self.init(kind: escape.kind.rawValue, detail: escape.detail, during: escape.during, remedy: escape.remedy)
    }
}
