import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ScenarioHost

/// Renders every error as `{"code": …, "message": …}` with its status, so no client ever sees an HTML page, a
/// stack trace or a dropped connection. Unexpected errors become a logged 500 with a generic message.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error, request: request)
            if apiError.status == .internalServerError {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            }
            return JSONResponse.make(apiError.body, status: apiError.status)
        }
    }

    static func apiError(for error: any Error, request: Request) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HostError:
            return APIError(error)
        case let error as HTTPError where error.status == .notFound:
            return APIError(.notFound, "noSuchEndpoint", "there is no endpoint \(request.method) \(request.uri.path); see openapi/scenariod.yaml.")
        case let error as HTTPError where error.status == .methodNotAllowed:
            return APIError(.methodNotAllowed, "methodNotAllowed", "\(request.uri.path) does not take \(request.method).")
        case let error as HTTPError where error.status == .contentTooLarge:
            return .bodyTooLarge(limit: JSONBody.limit)
        case let error as HTTPError:
            return APIError(error.status, "httpError", error.body ?? error.status.reasonPhrase)
        default:
            return APIError(.internalServerError, "internal", "the daemon failed to answer \(request.method) \(request.uri.path); the journal has the details.")
        }
    }
}
