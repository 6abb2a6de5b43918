import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ScenarioHost
import Services

/// JSON responses, encoded the one way scenariod encodes JSON (sorted keys, ISO 8601 dates).
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        // Our bodies are plain Codable data; a failure here is a programming error, answered as a 500 body.
        let data = (try? JSONEncoder.services.encode(value))
            ?? Data(#"{"code":"internal","message":"the response could not be encoded"}"#.utf8)
        return make(json: data, status: status)
    }

    /// A response of JSON that is encoded already (a Model's state).
    static func make(json data: Data, status: HTTPResponse.Status = .ok) -> Response {
        make(json: ByteBuffer(bytes: data), status: status)
    }

    /// JSON already in a buffer (one kept between reads is sent without a copy).
    static func make(json buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
    }

    /// A state read: the state with its `ETag`, or `304 Not Modified` when `If-None-Match` names that tag
    /// (the same answer ``DirectReadResponder`` gives a settled session).
    static func make(_ state: ModelState, ifNoneMatch conditions: [String]) -> Response {
        let tag = StateEntityTag.of(state)
        guard !StateEntityTag.isMatched(tag, byIfNoneMatch: conditions) else {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        var response = make(json: state.jsonData)
        response.headers[.eTag] = tag
        return response
    }

    static func noContent() -> Response {
        Response(status: .noContent)
    }
}
