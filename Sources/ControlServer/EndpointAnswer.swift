import ControlAPI
import Fakes
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOFoundationCompat
import ScenarioHost
import Services

/// How a session endpoint answers one request: through the session's network, as the Model's would be answered
/// (``Session/sendFromOutside(_:keep:streaming:)``), journaled as sent from outside. A streamed answer (server-sent
/// events, chunks) is written chunk by chunk as the session's clock delivers it; a delayed one waits for the clock.
/// A request no route answers gets 502 with the near misses, a timeout fault 504, a reset fault a closed connection.
struct EndpointAnswer: Sendable {
    let session: Session
    /// Nil when the endpoint asks for none (a Unix socket, or `"token": false`).
    let token: EndpointToken?
    let origin: RouteOrigin?
    let access: AccessPolicy
    let logger: Logger

    /// Header fields of one connection, not of the request: a client's proxy and framing fields are not the app's.
    static let hopByHop: [HTTPField.Name] = [
        .connection, .transferEncoding, .contentLength, .upgrade, .te, .trailer, .proxyAuthorization,
        HTTPField.Name("Keep-Alive")!, HTTPField.Name("Proxy-Connection")!,
    ]
    /// The journal sequence of the request an answer answers, so a client can find it in the journal.
    static let sequenceField = HTTPField.Name("Scenario-Sequence")!
    /// The absolute URL a request stands for, given by a client that knows it (ScenarioURLProtocol): no mapping then.
    static let urlField = HTTPField.Name("Scenario-URL")!
    /// The transport error a 502 or 504 stands for.
    static let faultField = HTTPField.Name("Scenario-Fault")!

    func respond(to request: Request, writer: consuming ResponseWriter, channel: any Channel, peer: PeerCredentials?) async throws {
        var request = request
        var fields = request.head.headerFields
        let target = request.head.path ?? "/"
        if let refused = admission(of: request.head, peer: peer, fields: &fields) {
            return try await writer.write(response: refused)
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: SessionEndpoint.bodyLimit)
        } catch {
            return try await writer.write(response: Self.text(.contentTooLarge, "the request's body is over the endpoint's \(SessionEndpoint.bodyLimit >> 20) MiB."))
        }
        // A body cut short (the body timeout closed the connection, or the client went) is not a request to send on.
        let declared = request.head.headerFields[.contentLength].flatMap(Int.init)
        guard channel.isActive, declared == nil || declared == body.readableBytes else { return }
        for name in Self.hopByHop { fields[name] = nil }
        let url: URL
        switch await destination(of: request.head, fields: &fields, target: target) {
        case .success(let found): url = found
        case .failure(let refused): return try await writer.write(response: refused.refusal)
        }
        let sent: OutsideRequest
        let (parts, delivery) = AsyncStream.makeStream(of: NetworkStreamPart.self)
        do throws(HostError) {
            sent = try await session.sendFromOutside(NetworkRequest(method: request.method, url: url, headerFields: fields, body: Data(buffer: body))) { part in
                if case .terminated = delivery.yield(part) { return false }
                return true
            }
        } catch {
            return try await writer.write(response: gone(error))
        }
        // The parts end when the answer is in: at once for most, once the stream ends for a streamed one.
        let answered = Task {
            _ = await sent.answer()
            delivery.finish()
        }
        defer { answered.cancel() }
        let sequence = sent.arrived?.sequence ?? 0
        var delivered = parts.makeAsyncIterator()
        guard case .head(let head)? = await delivered.next() else {
            return try await writeWhole(sent, sequence: sequence, writer: writer, channel: channel)
        }
        var bodyWriter = try await writer.writeHead(Self.head(head, sequence: sequence, length: nil))
        while let part = await delivered.next() {
            if case .chunk(let chunk) = part { try await bodyWriter.write(ByteBuffer(data: chunk)) }
        }
        // A stream the session broke (a condition's fault) breaks the client's connection too, as a server's would.
        if case .failure? = sent.result { return try await channel.close() }
        try await bodyWriter.finish(nil)
    }

    /// The answer whole: the response, or the fault as the status an HTTP client understands.
    private func writeWhole(_ sent: OutsideRequest, sequence: Int, writer: consuming ResponseWriter,
                            channel: any Channel) async throws {
        guard let whole = whole(sent.result, sequence: sequence) else { return try await channel.close() }
        try await writer.write(response: whole)
    }

    /// `result` as a whole response: the route's, or the fault's 502 or 504 with the near misses; nil for a reset
    /// fault, which closes the connection.
    func whole(_ result: Result<NetworkResponse, TransportError>?, sequence: Int) -> Refusal? {
        switch result {
        case .success(let response)?:
            return (Self.head(response.head, sequence: sequence, length: response.body.count), ByteBuffer(data: response.body))
        case .failure(.connectionReset)?:
            return nil
        case .failure(let fault)?:
            var lines = ["scenariod: \(fault.description) (\(fault.rawValue), request \(sequence) of session '\(session.id)')"]
            if let entry = session.journalEntry(sequence), let misses = entry.nearMisses, !misses.isEmpty {
                lines.append("No route matched \(entry.method) \(entry.url). Closest routes:")
                lines += misses.map { "  \($0.route): \($0.field) expected \($0.expected), got \($0.actual)" }
            }
            var response = Self.text(fault == .timeout ? .gatewayTimeout : .badGateway, lines.joined(separator: "\n"))
            response.head.headerFields[Self.faultField] = fault.rawValue
            response.head.headerFields[Self.sequenceField] = "\(sequence)"
            return response
        case nil:
            return Self.text(.serviceUnavailable, "session '\(session.id)' stopped before it answered.")
        }
    }

    /// A route's head as the endpoint sends it: its own framing, and the request's sequence.
    static func head(_ route: HTTPResponse, sequence: Int, length: Int?) -> HTTPResponse {
        var head = route
        for name in hopByHop { head.headerFields[name] = nil }
        if let length { head.headerFields[.contentLength] = "\(length)" }
        head.headerFields[sequenceField] = "\(sequence)"
        return head
    }
}

extension ResponseWriter {
    /// Writes a whole response made of a head and its body.
    consuming func write(response: (head: HTTPResponse, body: ByteBuffer)) async throws {
        try await write(response: response.head, body: ResponseBody(byteBuffer: response.body))
    }
}
