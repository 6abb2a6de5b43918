import ControlAPI
import Foundation
import Hummingbird
import ScenarioHost
import Services

extension ControlRoutes {
    /// Streams the Model is reading: listed, and steered as the server would ("it now sends this", "it hangs up").
    func addStreamRoutes(to router: EndpointRouter) {
        router.get("/v1/sessions/:session/streams") { _, context in
            JSONResponse.make(StreamListBody(streams: try await session(context).openStreams().compactMap(StreamBody.init)))
        }
        router.post("/v1/sessions/:session/streams/:stream/push") { request, context in
            let body = try await JSONBody.decode(PushToStreamRequest.self, from: request, fields: ["data", "event", "id", "retry", "text"],
                                                 required: [], emptyMeans: nil)
            let bytes = try Self.bytes(of: body)
            let session = try await session(context)
            return JSONResponse.make(json: try await session.pushToStream(bytes, stream: try streamNumber(context)).jsonData)
        }
        router.post("/v1/sessions/:session/streams/:stream/close") { request, context in
            let body = try await JSONBody.decode(CloseStreamRequest.self, from: request, fields: ["fault"], required: [])
            let fault = try TransportError(field: body.fault)
            let session = try await session(context)
            return JSONResponse.make(json: try await session.closeStream(try streamNumber(context), fault: fault).jsonData)
        }
    }

    private func streamNumber(_ context: ControlRequestContext) throws -> Int {
        let text = try parameter("stream", of: context)
        guard let number = Int(text), number > 0 else {
            throw APIError(.badRequest, "invalidRequest", "stream '\(text.prefix(80))' is not a stream number; streams are numbered by their request's journal sequence (GET /v1/sessions/ID/streams lists them).")
        }
        return number
    }

    /// The bytes a push sends: an event in the wire format, or `text` as written.
    private static func bytes(of body: PushToStreamRequest) throws -> Data {
        let fields = [body.data.map { _ in "data" }, body.event.map { _ in "event" }, body.id.map { _ in "id" },
                      body.retry.map { _ in "retry" }].compactMap { $0 }
        if let text = body.text {
            guard fields.isEmpty else {
                throw APIError(.badRequest, "invalidRequest", "the push has 'text' and \(fields.map { "'\($0)'" }.joined(separator: ", ")); 'text' is sent exactly as written, so send either it or an event's fields.")
            }
            return Data(text.utf8)
        }
        guard let data = body.data else {
            throw APIError(.badRequest, "invalidRequest", "the push needs 'data' (an event, with 'event', 'id' and 'retry' if wanted) or 'text' (sent exactly as written).")
        }
        for (name, value) in [("event", body.event), ("id", body.id)] where value?.contains(where: \.isNewline) == true {
            throw APIError(.badRequest, "invalidRequest", "the push's '\(name)' holds a line break, which would end the field; send it on one line.")
        }
        if let retry = body.retry, retry < 0 {
            throw APIError(.badRequest, "invalidRequest", "the push's 'retry' is \(retry); a reconnection time is 0 or more milliseconds.")
        }
        return Data(SSEEvent(event: body.event, id: body.id, data: data, retry: body.retry).text.utf8)
    }
}
