import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import Services

extension JSONBody {
    /// The media types a `PATCH` body may say it is: RFC 7396's own, and plain JSON for clients that cannot set it.
    static let mergePatchMediaTypes = ["application/merge-patch+json", "application/json"]

    /// The body of a `PATCH` as a JSON merge patch (RFC 7396), read as strictly as every other body. A body that
    /// names no media type is taken as a merge patch, the only kind of patch the API has.
    /// - Throws: ``APIError`` 415 `unsupportedMediaType` with an `Accept-Patch` header for another media type: a
    ///   JSON Patch (RFC 6902, `application/json-patch+json`) is a list of operations, which read as a merge patch
    ///   would silently replace the whole state with that list.
    static func mergePatch(of request: Request) async throws -> JSONValue {
        if let contentType = request.headers[.contentType] {
            guard mergePatchMediaTypes.contains(mediaType(of: contentType)) else {
                var error = APIError(.unsupportedMediaType, .unsupportedMediaType,
                                     "\(request.method) \(request.uri.path) takes a JSON merge patch (RFC 7396), sent as Content-Type: application/merge-patch+json (or application/json), not '\(contentType)'; to replace the whole state, PUT it.")
                error.headers[.acceptPatch] = mergePatchMediaTypes.joined(separator: ", ")
                throw error
            }
        }
        return try await value(of: request, emptyMeans: nil, mediaTypes: mergePatchMediaTypes)
    }
}

extension HTTPField.Name {
    /// RFC 5789's `Accept-Patch`: the patch media types a resource takes.
    static let acceptPatch = HTTPField.Name("Accept-Patch")!
}
