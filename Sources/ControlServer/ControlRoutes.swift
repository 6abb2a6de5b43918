import ControlAPI
import Fakes
import Foundation
import Hummingbird
import ScenarioFormat
import ScenarioHost

/// The control API's routes (openapi/scenariod.yaml is their contract), over a host.
struct ControlRoutes: Sendable {
    let host: SessionHost
    let configuration: ControlConfiguration
    /// The figures `GET /metrics` shows, counted by the server as it answers.
    let metrics = DaemonMetrics()
    /// The explorations running on this daemon's engine, and the last ones over.
    let explorations: ExplorationRegistry

    init(host: SessionHost, configuration: ControlConfiguration) {
        self.host = host
        self.configuration = configuration
        self.explorations = ExplorationRegistry(limits: configuration.explorations)
    }

    /// A router with every route and the error middleware.
    func makeRouter() -> Router<ControlRequestContext> {
        let endpoints = EndpointRouter()
        addDaemonRoutes(to: endpoints)
        addScenarioRoutes(to: endpoints)
        addSessionRoutes(to: endpoints)
        addModelRoutes(to: endpoints)
        addClockRoutes(to: endpoints)
        addHistoryRoutes(to: endpoints)
        addDashboardRoutes(to: endpoints)
        addKeyValueRoutes(to: endpoints)
        addServiceRoutes(to: endpoints)
        addJournalRoutes(to: endpoints)
        addStreamRoutes(to: endpoints)
        addOutsideRequestRoutes(to: endpoints)
        addExplorationRoutes(to: endpoints)
        return endpoints.makeRouter()
    }

    private func addDaemonRoutes(to router: EndpointRouter) {
        router.get("/v1/health") { _, _ in
            let catalog = await host.catalog
            let ownership = await SessionHost.checkTaskOwnership()
            return JSONResponse.make(HealthBody(version: configuration.version, daemon: configuration.name, scenarios: catalog.validCount,
                                                scenariosServingLastGood: catalog.servingLastGood.count,
                                                invalidScenarios: catalog.invalid.count, sessions: await host.openSessions().count,
                                                defaultSession: configuration.defaultSession,
                                                taskOwnership: TaskOwnershipBody(complete: ownership.isComplete, works: ownership.parts.filter(\.works).map(\.name),
                                                                                 missing: ownership.missing, summary: ownership.summary)))
        }
        router.get("/metrics") { [metrics, host] _, _ in
            let body = await metrics.scrape(host: host, ownershipComplete: await SessionHost.checkTaskOwnership().isComplete)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("/v1/version") { _, _ in
            JSONResponse.make(VersionBody(version: configuration.version, daemon: configuration.name))
        }
        let models = host.models.descriptions
        router.get("/v1/models") { _, _ in
            JSONResponse.make(models)
        }
    }

    /// The session named in the path.
    func session(_ context: ControlRequestContext) async throws -> Session {
        try await host.session(try parameter("session", of: context))
    }

    /// A path parameter that names a journal sequence number (a stream, a request sent from outside), or a 400 that
    /// says what it is not and `refusal`: how such things are numbered. A number too large for any journal names none:
    /// `Int.max`, answered with the 404 of any other unknown number rather than as malformed.
    func journalNumber(_ name: String, of context: ControlRequestContext, refusal: String) throws -> Int {
        let text = try parameter(name, of: context)
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), Int(text) == nil { return .max }
        guard let number = Int(text), number > 0 else {
            throw APIError(.badRequest, .invalidRequest, "\(name) '\(text.prefix(80))' is not a \(name) number; \(refusal).")
        }
        return number
    }

    /// A path parameter, percent-decoded (Hummingbird hands them over as sent), so `a%2Fb` is the key `a/b`.
    func parameter(_ name: String, of context: ControlRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        // Most ids hold no escape: skip Foundation's decoding, which copies through CFString (1.8 % of the test benchmark).
        if !raw.utf8.contains(UInt8(ascii: "%")) { return raw }
        guard let decoded = raw.removingPercentEncoding else {
            throw APIError(.badRequest, .invalidRequest, "the \(name) '\(raw.prefix(80))' in the path is not valid percent-encoding.")
        }
        return decoded
    }
}
