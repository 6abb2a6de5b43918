package import ControlAPI
package import Fakes
import Foundation
import Hummingbird
import ScenarioFormat
import ScenarioHost
import Services

extension ControlRoutes {
    func addModelRoutes(to router: EndpointRouter) {
        router.post("/v1/sessions/:session/actions/:action") { request, context in
            let arguments = try await JSONBody.value(of: request)
            let session = try await session(context)
            let state = try await session.perform(try parameter("action", of: context), arguments: arguments)
            return JSONResponse.make(json: state.jsonData)
        }
        router.get("/v1/sessions/:session/state") { request, context in
            JSONResponse.make(try await session(context).state(), ifNoneMatch: request.headers[values: .ifNoneMatch])
        }
        router.get("/v1/sessions/:session/events") { request, context in
            let session = try await session(context)
            return try await EventStream.response(for: session, after: try EventStream.lastEventID(of: request),
                                                  connection: context.connection)
        }
    }

    func addClockRoutes(to router: EndpointRouter) {
        router.get("/v1/sessions/:session/clock") { _, context in
            let session = try await session(context)
            return JSONResponse.make(ClockBody(now: try await session.now(), nextWake: try await session.nextWake()))
        }
        router.post("/v1/sessions/:session/clock/advance") { request, context in
            let body = try await JSONBody.decode(AdvanceClockRequest.self, from: request, fields: ["by", "play"], required: ["by"])
            guard let duration = DurationText.parse(body.by) else {
                throw APIError(.badRequest, .invalidDuration, "'\(body.by)' is not a duration; write a number and a unit such as 250ms, 2s, 15m or 1h30m (at most 4 parts of up to 6 digits).")
            }
            let session = try await session(context)
            let now = try await session.advanceClock(by: duration, play: body.play ?? false)
            return JSONResponse.make(ClockBody(now: now, nextWake: try await session.nextWake()))
        }
        router.put("/v1/sessions/:session/clock") { request, context in
            let body = try await JSONBody.decode(SetClockRequest.self, from: request, fields: ["now"], required: ["now"])
            let session = try await session(context)
            let now = try await session.setClock(to: body.now)
            return JSONResponse.make(ClockBody(now: now, nextWake: try await session.nextWake()))
        }
    }

    func addKeyValueRoutes(to router: EndpointRouter) {
        router.get("/v1/sessions/:session/kv") { _, context in
            JSONResponse.make(KeyValueListBody(keys: try await session(context).keyValueKeys()))
        }
        router.get("/v1/sessions/:session/kv/:key") { _, context in
            JSONResponse.make(try await session(context).keyValue(try parameter("key", of: context)))
        }
        router.put("/v1/sessions/:session/kv/:key") { request, context in
            let value = try await JSONBody.value(of: request, emptyMeans: nil)
            try await session(context).setKeyValue(try parameter("key", of: context), to: value)
            return JSONResponse.make(value)
        }
        router.delete("/v1/sessions/:session/kv/:key") { _, context in
            try await session(context).removeKeyValue(try parameter("key", of: context))
            return JSONResponse.noContent()
        }
    }

    func addServiceRoutes(to router: EndpointRouter) {
        router.get("/v1/sessions/:session/services") { _, context in
            let services = try await session(context).services().map { service, isFake in
                ServiceListBody.Service(name: service.name, description: service.description, mode: isFake ? "fake" : "live")
            }
            return JSONResponse.make(ServiceListBody(services: services))
        }
        // GET, PUT and PATCH all speak the bare state, so what GET answers can be sent back by PUT unchanged (the
        // service's name is in the path, and the list above says what each service is).
        router.get("/v1/sessions/:session/services/:service") { _, context in
            JSONResponse.make(try await session(context).serviceState(try parameter("service", of: context)))
        }
        router.put("/v1/sessions/:session/services/:service") { request, context in
            let state = try await JSONBody.value(of: request, emptyMeans: nil)
            let name = try parameter("service", of: context)
            return JSONResponse.make(try await session(context).replaceServiceState(name, with: state))
        }
        router.patch("/v1/sessions/:session/services/:service") { request, context in
            let patch = try await JSONBody.mergePatch(of: request)
            let name = try parameter("service", of: context)
            return JSONResponse.make(try await session(context).patchServiceState(name, with: patch))
        }
    }

    func addJournalRoutes(to router: EndpointRouter) {
        for (path, unmatchedOnly) in [("/v1/sessions/:session/journal", false), ("/v1/sessions/:session/journal/unmatched", true)] {
            router.get(path) { _, context in
                // The buffer itself is kept: a read of an unchanged journal sends it without a copy.
                let body = try await session(context).journalBody(unmatchedOnly: unmatchedOnly, assemble: JournalResponse.body)
                return JSONResponse.make(json: body)
            }
        }
        router.get("/v1/sessions/:session/journal/counts") { _, context in
            let counts = try await session(context).requestCounts()
            return JSONResponse.make(RequestCountsBody(routes: counts.routes, unmatched: counts.unmatched, live: counts.passedThrough))
        }
        router.put("/v1/sessions/:session/routes/:route") { request, context in
            let session = try await session(context)
            let name = try parameter("route", of: context)
            try await session.setRoute(try await JSONBody.value(of: request, emptyMeans: nil), named: name,
                                       models: host.models.names, services: host.models.services)
            return JSONResponse.noContent()
        }
        router.delete("/v1/sessions/:session/routes/:route") { _, context in
            try await session(context).removeRoute(named: try parameter("route", of: context))
            return JSONResponse.noContent()
        }
        router.get("/v1/sessions/:session/network/conditions") { _, context in
            JSONResponse.make(NetworkConditionsBody(try await session(context).networkConditions()))
        }
        router.put("/v1/sessions/:session/network/conditions") { request, context in
            let body = try await JSONBody.decode(NetworkConditionsBody.self, from: request, fields: ["offline", "fault", "delay"], required: [],
                                              emptyMeans: nil)
            let conditions = try NetworkConditions(body)
            return JSONResponse.make(NetworkConditionsBody(try await session(context).setNetworkConditions(conditions)))
        }
        // Clearing is an action on the journal, not its removal: the journal stays, empty (a DELETE would promise a
        // 404 on the next GET).
        router.post("/v1/sessions/:session/journal/clear") { _, context in
            try await session(context).clearJournal()
            return JSONResponse.noContent()
        }
    }
}

extension NetworkConditionsBody {
    init(_ conditions: NetworkConditions) {
        self.init(offline: conditions.offline, fault: conditions.fault?.rawValue,
                  delay: conditions.delay > .zero ? DurationText.format(conditions.delay) : nil)
    }
}

extension TransportError {
    /// The error a request body's `fault` field names; nil when the field is absent.
    /// - Throws: ``APIError`` 400 `invalidRequest` for a name that is not a transport error.
    init?(field name: String?) throws {
        guard let name else { return nil }
        guard let error = TransportError(rawValue: name) else {
            throw APIError(.badRequest, .invalidRequest, "the field 'fault' is '\(name)', which is not a fault; give one of \(TransportError.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self = error
    }
}

extension NetworkConditions {
    /// The conditions a request body asks for (and a walk's step on the engine, in ScenarioTesting).
    /// - Throws: ``APIError`` 400 `invalidRequest` for an unknown fault, a malformed delay, or offline with a fault.
    package init(_ body: NetworkConditionsBody) throws {
        let fault = try TransportError(field: body.fault)
        if body.offline == true, fault != nil {
            throw APIError(.badRequest, .invalidRequest, "the body asks for offline and for fault '\(body.fault ?? "")'; offline is the fault offline, so give one.")
        }
        var delay = Duration.zero
        if let text = body.delay {
            guard let parsed = DurationText.parse(text) else {
                throw APIError(.badRequest, .invalidRequest, "the field 'delay' is '\(text)', which is not a duration; write one such as 250ms, 2s or 1m.")
            }
            delay = parsed
        }
        self.init(offline: body.offline ?? false, fault: fault, delay: delay)
    }
}
