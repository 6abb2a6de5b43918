import ControlServer
import Foundation
import ScenarioClient

/// The control API answered in the test's own process, through ``ControlServer/ControlResponder``: the same
/// routes, bodies and errors as over a socket, without one.
struct InProcessTransport: ControlTransport {
    let responder: ControlResponder

    var endpoint: String { "in-process" }

    func send(_ request: ControlRequest) async throws -> ControlResponse {
        let (status, body) = await responder.respond(method: request.method, path: request.path, body: request.body,
                                                     contentType: request.contentType)
        return ControlResponse(status: status, body: body)
    }
}
