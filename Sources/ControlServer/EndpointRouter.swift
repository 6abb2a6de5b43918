import Foundation
import HTTPTypes
import Hummingbird

/// Collects the API's endpoints, then builds Hummingbird's router with them and the error middleware, which is
/// told which methods each path has: a known path asked with another method answers 405 with `Allow`, where
/// Hummingbird alone would say 404 as if the path did not exist.
final class EndpointRouter {
    typealias Handler = @Sendable (Request, ControlRequestContext) async throws -> Response

    private var endpoints: [(method: HTTPRequest.Method, path: String, handler: Handler)] = []

    func get(_ path: String, use handler: @escaping Handler) { endpoints.append((.get, path, handler)) }
    func post(_ path: String, use handler: @escaping Handler) { endpoints.append((.post, path, handler)) }
    func put(_ path: String, use handler: @escaping Handler) { endpoints.append((.put, path, handler)) }
    func delete(_ path: String, use handler: @escaping Handler) { endpoints.append((.delete, path, handler)) }
    func patch(_ path: String, use handler: @escaping Handler) { endpoints.append((.patch, path, handler)) }

    /// The router serving every endpoint added, behind the error middleware.
    func makeRouter() -> Router<ControlRequestContext> {
        var table = EndpointTable()
        for endpoint in endpoints { table.add(endpoint.method, endpoint.path) }
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: APIErrorMiddleware(endpoints: table))
        for endpoint in endpoints {
            router.on(RouterPath(endpoint.path), method: endpoint.method, use: endpoint.handler)
        }
        return router
    }
}

/// Path templates (`/v1/sessions/:session/state`) and the methods each answers.
struct EndpointTable: Sendable {
    private var entries: [(segments: [String], methods: [HTTPRequest.Method])] = []

    mutating func add(_ method: HTTPRequest.Method, _ path: String) {
        let segments = Self.segments(path)
        if let index = entries.firstIndex(where: { $0.segments == segments }) {
            entries[index].methods.append(method)
        } else {
            entries.append((segments, [method]))
        }
    }

    /// The methods a request path answers to, or nil when no endpoint has that path. A literal segment wins over a
    /// parameter, as in the router: `/v1/scenarios/reload` is not `/v1/scenarios/:scenario`.
    func methods(forPath path: String) -> [HTTPRequest.Method]? {
        let requested = Self.segments(path)
        let matches = entries.filter { entry in
            entry.segments.count == requested.count
                && zip(entry.segments, requested).allSatisfy { template, actual in template.hasPrefix(":") || template == actual }
        }
        return matches.max { $0.segments.filter { !$0.hasPrefix(":") }.count < $1.segments.filter { !$0.hasPrefix(":") }.count }?.methods
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
