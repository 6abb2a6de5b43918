import Foundation
package import ScenarioClient

/// The control API answered in the caller's own process, through ``ControlResponder``: the same
/// routes, bodies and errors as over a socket, without one.
package struct InProcessTransport: ControlTransport {
    package let responder: ControlResponder

    package init(responder: ControlResponder) { self.responder = responder }

    package var endpoint: String { "in-process" }

    package func send(_ request: ControlRequest) async throws -> ControlResponse {
        let (status, body) = await responder.respond(method: request.method, path: request.path, body: request.body,
                                                     contentType: request.contentType)
        return ControlResponse(status: status, body: body)
    }
}
