import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import ScenarioHost
import ServiceLifecycle
import Services

extension ControlRoutes {
    /// Requests sent through a session's network from outside, as its Model's network service sends its own: for
    /// checking imported routes, and for clients the daemon does not host.
    func addOutsideRequestRoutes(to router: EndpointRouter) {
        router.post("/v1/sessions/:session/network/requests") { request, context in
            let body = try await JSONBody.decode(SendRequestBody.self, from: request,
                                                 fields: ["method", "url", "headers", "body", "bodyBase64", "wait"], required: ["url"],
                                                 emptyMeans: nil)
            let session = try await session(context)
            let wait = body.wait ?? true
            // The request is made in the call: made before the await above, Swift 6.3.1's optimizer crashes (signal
            // 11, splitting this coroutine) in a release build, as it did for a stream push.
            let sent = try await session.sendFromOutside(try Self.networkRequest(body), keep: !wait)
            if wait, sent.result == nil {
                // Until a clock move delivers it, or a reset or delete ends it: no longer than the request itself
                // waits. (A watch for a client that hangs up would add a callback to its connection per request,
                // which a keep-alive connection holds until it closes.) The daemon's shutdown ends it too: the
                // server waits for the requests it serves, and no clock moves once it stops accepting.
                _ = await cancelWhenGracefulShutdown { await sent.answer() }
                if sent.result == nil {
                    throw APIError(.serviceUnavailable, .daemonUnavailable, "the daemon is stopping: \(sent.arrived.map { "request \($0.sequence) to \($0.url)" } ?? "the request") was sent through session '\(session.id)' and journaled, but its answer waits on the session's clock, which no client can move now. Send it again once the daemon is back, or send it with \"wait\": false and move the clock.")
                }
            }
            return Self.response(for: sent, in: session)
        }
        router.get("/v1/sessions/:session/network/requests/:sequence") { _, context in
            let sequence = try journalNumber("sequence", of: context, refusal: "a request sent with \"wait\": false is named by the sequence its answer gave")
            let session = try await session(context)
            return Self.response(for: try await session.outsideRequest(sequence), in: session)
        }
    }

    /// 200 with the answer; 202 while it waits on the session's clock.
    private static func response(for sent: OutsideRequest, in session: Session) -> Response {
        let arrived = sent.arrived
        let sequence = arrived?.sequence ?? 0
        let journal = session.journalEntry(sequence) ?? arrived
        var body = SentRequestBody(sequence: sequence, journal: journal)
        switch sent.result {
        case nil:
            body.pending = true
            return JSONResponse.make(body, status: .accepted)
        case .success(let response):
            body.status = response.head.status.code
            body.headers = response.head.headerFields.map { "\($0.name): \($0.value)" }
            if !response.body.isEmpty {
                if let text = String(validating: response.body, as: UTF8.self) { body.body = text } else { body.bodyBase64 = response.body.base64EncodedString() }
            }
        case .failure(let fault):
            body.fault = fault.rawValue
            body.message = fault.description
        }
        return JSONResponse.make(body)
    }

    /// The request `body` describes, or a 400 that says which field is wrong and how.
    static func networkRequest(_ body: SendRequestBody) throws -> NetworkRequest {
        let methodText = body.method ?? "GET"
        guard let method = HTTPRequest.Method(methodText) else {
            throw APIError(.badRequest, .invalidRequest, "'\(methodText.prefix(80))' is not an HTTP method; write a token such as GET, POST, PUT, PATCH or DELETE.")
        }
        guard let url = URL(string: body.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw APIError(.badRequest, .invalidRequest, "the url '\(body.url.prefix(200))' is not an absolute http or https URL; write it as the Model would send it, such as https://api.example.com/items?page=2.")
        }
        var fields = HTTPFields()
        for (index, line) in (body.headers ?? []).enumerated() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw APIError(.badRequest, .invalidRequest, "headers[\(index)] '\(line.prefix(80))' is not a header field; write it as 'Name: value', as curl's -H takes it.")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard HTTPField.isValidValue(value) else {
                throw APIError(.badRequest, .invalidRequest, "headers[\(index)] '\(name)' has a value with a line break or another control character, which no header field may hold.")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        let content: Data
        switch (body.body, body.bodyBase64) {
        case (let text?, nil): content = Data(text.utf8)
        case (nil, let encoded?):
            guard let bytes = Data(base64Encoded: encoded) else {
                throw APIError(.badRequest, .invalidRequest, "'bodyBase64' is not base64; send text as 'body', or the bytes' standard base64 (RFC 4648 §4).")
            }
            content = bytes
        case (nil, nil): content = Data()
        case (_?, _?):
            throw APIError(.badRequest, .invalidRequest, "the request has both 'body' and 'bodyBase64'; send text as 'body' or bytes as 'bodyBase64', not both.")
        }
        return NetworkRequest(method: method, url: url, headerFields: fields, body: content)
    }
}
