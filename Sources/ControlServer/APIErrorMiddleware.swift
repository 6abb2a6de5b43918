import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ScenarioHost

/// Renders every error as `{"code": …, "message": …}` with its status, so no client ever sees an HTML page, a
/// stack trace or a dropped connection. Unexpected errors become a logged 500 with a generic message.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The endpoints, to tell a wrong method (405) from a path that does not exist (404).
    var endpoints = EndpointTable()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if let empty = Self.emptyKey(request) { return empty.response }
            guard let allowed = endpoints.methods(forPath: request.uri.path) else {
                return Self.apiError(for: error, request: request).response
            }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            var response = APIError(.methodNotAllowed, .methodNotAllowed,
                                    "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(allow).").response
            response.headers[.allow] = allow
            return response
        } catch {
            let apiError = Self.apiError(for: error, request: request)
            if apiError.status == .internalServerError {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            }
            return apiError.response
        }
    }

    /// A write of the key-value key '' (`PUT …/kv/`, as a form with an empty key field sends): the path names the
    /// list of keys, which takes only GET, so say what is wrong with the key rather than with the method.
    static func emptyKey(_ request: Request) -> APIError? {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: false)
        guard [.put, .delete].contains(request.method), segments.count == 6, segments[1] == "v1", segments[2] == "sessions",
              segments[4] == "kv", segments[5].isEmpty else { return nil }
        return APIError(.badRequest, .invalidKey, "the key is empty; a key is 1 to 1,024 characters without control characters: \(request.method) /v1/sessions/\(segments[3])/kv/KEY.")
    }

    /// A key-value key (or a service's name) with a `/` in it splits the path: say how to write it.
    static func slashInKeyHint(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count > 6, segments[1] == "v1", segments[2] == "sessions", segments[4] == "kv" else { return "" }
        let key = segments[5...].joined(separator: "/")
        let escaped = segments[5...].joined(separator: "%2F")
        return ". If '\(key)' is one key, write each '/' in it as %2F: /v1/sessions/\(segments[3])/kv/\(escaped)"
    }

    static func apiError(for error: any Error, request: Request) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HostError:
            return APIError(error)
        case is RequestFramingHandler.BodyCutShort:
            // Answered already, 408, by the framing handler; this answer is not written, and is no server fault.
            return APIError(.requestTimeout, .bodyTimeout, "the request body did not arrive whole; it was not acted on.")
        case let error as HTTPError where error.status == .notFound:
            return APIError(.notFound, .noSuchEndpoint, "there is no endpoint \(request.method) \(request.uri.path)\(slashInKeyHint(request.uri.path)); see openapi/scenariod.yaml.")
        case let error as HTTPError where error.status == .methodNotAllowed:
            return APIError(.methodNotAllowed, .methodNotAllowed, "\(request.uri.path) does not take \(request.method).")
        case let error as HTTPError where error.status == .contentTooLarge:
            return .bodyTooLarge(limit: JSONBody.limit)
        case let error as HTTPError:
            return APIError(error.status, .httpError, error.body ?? error.status.reasonPhrase)
        default:
            return APIError(.internalServerError, .internal, "the daemon failed to answer \(request.method) \(request.uri.path); the journal has the details.")
        }
    }
}
