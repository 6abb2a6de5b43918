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
            try await push(request, context)
        }
        router.post("/v1/sessions/:session/streams/:stream/close") { request, context in
            let body = try await JSONBody.decode(CloseStreamRequest.self, from: request, fields: ["fault", "code", "reason"], required: [])
            let fault = try TransportError(field: body.fault)
            let frame = try Self.closeFrame(of: body)
            let number = try journalNumber("stream", of: context, refusal: Self.streamNumbering)
            let session = try await session(context)
            // What the frame may hold depends on the stream, so it is checked once the stream is known to be open (a
            // stream that is not gets the session's 404).
            if let frame, let kind = try await Self.kind(of: number, in: session) {
                guard kind == .webSocket else {
                    throw APIError(.badRequest, .invalidRequest, "stream \(number) is \(Self.describe(kind)), which ends without a close frame; 'code' and 'reason' are a WebSocket's. Close it with {} or break it off with a 'fault'.")
                }
                // A close frame's payload is at most 125 bytes, two of them the code (RFC 6455 §5.5), as the scenario format says.
                guard frame.reason.utf8.count <= 123 else {
                    throw APIError(.badRequest, .invalidRequest, "the close reason is \(frame.reason.utf8.count) bytes; a close frame holds at most 123 (RFC 6455 §5.5), so shorten it.")
                }
            }
            let state = try await session.closeStream(number, fault: fault, frame: frame)
            return JSONResponse.make(json: state.jsonData)
        }
    }

    private func push(_ request: Request, _ context: ControlRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PushToStreamRequest.self, from: request, fields: ["data", "event", "id", "retry", "text"],
                                             required: [], emptyMeans: nil)
        let number = try journalNumber("stream", of: context, refusal: Self.streamNumbering)
        let session = try await session(context)
        if try await Self.kind(of: number, in: session) == .rpc {
            throw APIError(.badRequest, .invalidRequest, "stream \(number) is a gRPC call, whose messages are protobuf its route writes; push into streams and WebSockets. End the call with close ({} ends it OK) or break it off with a 'fault'.")
        }
        if let kind = try await Self.kind(of: number, in: session), kind != .events, body.text == nil {
            throw APIError(.badRequest, .invalidRequest, "stream \(number) is \(Self.describe(kind)): push what it sends as 'text', sent exactly as written; 'data', 'event', 'id' and 'retry' make a server-sent event, which only an event stream carries.")
        }
        // The bytes are made in the call: made before the awaits above, Swift 6.3.1's optimizer crashes (signal 11,
        // splitting this coroutine) in a release build.
        let state = try await session.pushToStream(try Self.bytes(of: body), stream: number)
        return JSONResponse.make(json: state.jsonData)
    }

    /// What kind of stream open stream `number` is; nil when none of that number is open (the session says so).
    private static func kind(of number: Int, in session: Session) async throws -> StreamTranscript.Kind? {
        try await session.openStreams().first { $0.sequence == number }?.stream?.kind
    }

    private static func describe(_ kind: StreamTranscript.Kind) -> String {
        switch kind {
        case .events: "a stream of server-sent events"
        case .chunks: "a chunked body"
        case .webSocket: "a WebSocket"
        case .rpc: "a gRPC call"
        }
    }

    /// A WebSocket's close frame from `code` and `reason`; nil when neither is given.
    private static func closeFrame(of body: CloseStreamRequest) throws -> WebSocketClose? {
        guard body.code != nil || body.reason != nil else { return nil }
        if body.fault != nil {
            throw APIError(.badRequest, .invalidRequest, "the close has a 'fault' and a close frame ('code', 'reason'); a dropped connection sends no frame, so give one or the other.")
        }
        let code = body.code ?? 1000
        guard (1000...4999).contains(code), ![1005, 1006, 1015].contains(code) else {
            throw APIError(.badRequest, .invalidRequest, "the close code \(code) is not one a close frame carries; use 1000 (normal), 1001 (going away), 1011 (server error) or 4000–4999.")
        }
        return WebSocketClose(code: code, reason: body.reason ?? "")
    }

    private static let streamNumbering = "streams are numbered by their request's journal sequence (GET /v1/sessions/ID/streams lists them)"

    /// The bytes a push sends: an event in the wire format, or `text` as written.
    private static func bytes(of body: PushToStreamRequest) throws -> Data {
        var fields: [String] = []
        if body.data != nil { fields.append("data") }
        if body.event != nil { fields.append("event") }
        if body.id != nil { fields.append("id") }
        if body.retry != nil { fields.append("retry") }
        if let text = body.text {
            guard fields.isEmpty else {
                throw APIError(.badRequest, .invalidRequest, "the push has 'text' and \(fields.map { "'\($0)'" }.joined(separator: ", ")); 'text' is sent exactly as written, so send either it or an event's fields.")
            }
            return Data(text.utf8)
        }
        guard let data = body.data else {
            throw APIError(.badRequest, .invalidRequest, "the push needs 'data' (an event, with 'event', 'id' and 'retry' if wanted) or 'text' (sent exactly as written).")
        }
        // CR and LF end an SSE field; nothing else does.
        let breaksLine = { (text: String?) in text?.unicodeScalars.contains { $0 == "\r" || $0 == "\n" } == true }
        if breaksLine(body.event) || breaksLine(body.id) {
            throw APIError(.badRequest, .invalidRequest, "the push's 'event' or 'id' holds a line break, which would end the field; send it on one line.")
        }
        if let retry = body.retry, !(0...86_400_000).contains(retry) {
            throw APIError(.badRequest, .invalidRequest, "the push's 'retry' is \(retry); a reconnection time is 0 to 86,400,000 milliseconds (a day).")
        }
        return SSEEvent(event: body.event, id: body.id, data: data, retry: body.retry).bytes
    }
}
