import ControlAPI
import Fakes
import Foundation
import HTTPTypes
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ScenarioHost
import Services
import Synchronization
// `struct stat`'s module on Linux (ControlSocketServer says why).
import CDispatch

/// A session's own HTTP/1.1 listener: a Unix socket in the daemon's runtime directory, or a loopback TCP port. Every
/// request it takes goes through the session's network as the Model's would (SessionEndpoint+Answer.swift); it is
/// closed with the session, its connections with it.
final class SessionEndpoint: SessionAttachment {
    /// What `GET /v1/sessions/{id}` shows.
    let body: SessionEndpointBody
    private let listener: any Channel
    private let connections: OpenConnections
    private let socketPath: String?
    private let logger: Logger

    /// The most a request's body may hold; a larger one is answered 413.
    static let bodyLimit = 32 << 20
    /// The names of the handlers that time and frame each request; a WebSocket handshake removes them.
    static let httpHandlerNames = ["scenariod.request-timeout", "scenariod.request-framing"]

    private init(body: SessionEndpointBody, listener: any Channel, connections: OpenConnections, socketPath: String?, logger: Logger) {
        self.body = body
        self.listener = listener
        self.connections = connections
        self.socketPath = socketPath
        self.logger = logger
    }

    /// The endpoint's connections now, closed with it: a client streaming server-sent events never ends its own.
    private final class OpenConnections: Sendable {
        let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

        func add(_ channel: any Channel) {
            channels.withLock { $0[ObjectIdentifier(channel)] = channel }
            channel.closeFuture.whenComplete { [self] _ in _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) } }
        }
    }

    /// What `"endpoint"` in `POST /v1/sessions` asks for, read and checked before its session is made.
    struct Asked: Sendable {
        let request: SessionEndpointRequest
        /// Its `origin`, parsed.
        let origin: RouteOrigin?
    }

    /// The endpoint `value` asks for: its fields checked as the body's are (a misspelt "prot" is refused rather than
    /// ignored), then its port and origin.
    static func asked(_ value: JSONValue) throws -> Asked {
        let request: SessionEndpointRequest
        do {
            request = try JSONBody.decode(SessionEndpointRequest.self, from: value, fields: ["port", "token", "origin"], required: [])
        } catch var error as APIError {
            error.body.message = "endpoint: \(error.body.message)"
            throw error
        }
        if let port = request.port, !(0...65535).contains(port) {
            throw APIError(.badRequest, .invalidRequest, "endpoint.port \(port) is not a TCP port; give 0 for any free one, or 1 to 65535.")
        }
        guard let given = request.origin else { return Asked(request: request, origin: nil) }
        guard let origin = RouteOrigin(url: given) else {
            throw APIError(.badRequest, .invalidRequest, "endpoint.origin '\(given.prefix(200))' is not an http or https origin; write it as https://api.example.com.")
        }
        return Asked(request: request, origin: origin)
    }

    /// Opens the endpoint `asked` describes, for `session`, and ties it to the session's life.
    /// - Parameter configuration: Where Unix socket endpoints go (`endpointDirectory`: with none, only loopback ones
    ///   open); the control socket's access policy, which a Unix socket endpoint follows; and its timeouts, which every
    ///   endpoint's connections keep (a head that does not come, or a body that does not come whole, closes its
    ///   connection).
    static func open(_ asked: Asked, for session: Session, configuration: ControlConfiguration,
                     logger: Logger) async throws -> SessionEndpoint {
        let (request, origin) = (asked.request, asked.origin)
        let directory = configuration.endpointDirectory
        let token = request.port != nil && request.token != false ? EndpointToken.make() : nil
        let answer = EndpointAnswer(session: session, token: token, origin: origin, access: configuration.access, logger: logger)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
        let connections = OpenConnections()
        let requestTimeout = TimeAmount(configuration.requestTimeout), bodyTimeout = TimeAmount(configuration.bodyTimeout)
        let setUp = { @Sendable (channel: any Channel) -> EventLoopFuture<Void> in
            connections.add(channel)
            // Who is calling matters only to an allow-list, and only a Unix socket can say.
            let asking = request.port == nil && configuration.access.isRestricted
            return (asking ? PeerCredentials.future(of: channel) : channel.eventLoop.makeSucceededFuture(nil)).flatMap { peer in
                let http = HTTP1WebSocketUpgradeChannel(responder: { request, writer, channel in
                    try await answer.respond(to: request, writer: writer, channel: channel, peer: peer)
                }, configuration: .init(ws: .init(maxFrameSize: 1 << 20, autoPing: .disabled))) { head, channel, _ in
                    await answer.upgrade(head, channel: channel, peer: peer)
                }
                return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
                    let pipeline = channel.pipeline.syncOperations
                    let upgrader = try pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
                    // The request's timeout and framing, until a WebSocket handshake takes the connection over.
                    try pipeline.addHandler(RequestTimeoutHandler(timeout: requestTimeout), name: httpHandlerNames[0], position: .before(upgrader))
                    try pipeline.addHandler(RequestFramingHandler(bodyLimit: bodyLimit, bodyTimeout: bodyTimeout),
                                            name: httpHandlerNames[1], position: .before(upgrader))
                    // A task per connection, on its own event loop as the control socket's are, that ends when the
                    // connection does; the session's life (not a task group's) bounds the listener.
                    Task(executorPreference: EventLoopTaskExecutor(channel.eventLoop)) {
                        await http.handle(value: value, logger: logger)
                    }
                }
            }
        }
        let listener: any Channel
        let body: SessionEndpointBody
        var socketPath: String?
        do {
            if let port = request.port {
                listener = try await bootstrap.childChannelInitializer(setUp).bind(host: "127.0.0.1", port: port).get()
                let bound = listener.localAddress?.port ?? port
                let url = "http://127.0.0.1:\(bound)"
                body = SessionEndpointBody(url: url, port: bound, token: token?.value,
                                           proxy: token.map { "http://scenariod:\($0.value)@127.0.0.1:\(bound)" } ?? url,
                                           origin: origin?.description)
            } else {
                guard let directory else {
                    throw APIError(.unprocessableContent, .invalidRequest, "this daemon has no runtime directory for a Unix socket endpoint (its control socket was handed over without a path); ask for a loopback port: \"endpoint\": {\"port\": 0}.")
                }
                let path = "\(directory)/\(session.id).sock"
                guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
                    throw APIError(.unprocessableContent, .invalidRequest, "the endpoint's socket path \(path) is longer than a Unix socket path may be (107 bytes); give the session a shorter id, or ask for a loopback port.")
                }
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
                listener = try await bootstrap.childChannelInitializer(setUp)
                    .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: ControlSocketServer.isStaleSocket(path)).get()
                socketPath = path
                // Reached as the control socket is: owner and group.
                guard chmod(path, 0o660) == 0 else {
                    try? await listener.close()
                    throw APIError(.internalServerError, .internal, "cannot set mode 0660 on the endpoint's socket \(path): \(String(cString: strerror(errno)))")
                }
                body = SessionEndpointBody(url: "http://localhost", socket: path, origin: origin?.description)
            }
        } catch let error as APIError {
            throw error
        } catch {
            let (place, remedy) = request.port.map { ("127.0.0.1:\($0)", "Ask for another port, or 0 for any free one.") }
                ?? ("\(directory ?? "")/\(session.id).sock", "Check that the daemon may create sockets in \(directory ?? "its runtime directory"), or ask for a loopback port.")
            throw APIError(.conflict, .endpointUnavailable, "the session's endpoint cannot listen on \(place): \(error). \(remedy)")
        }
        let endpoint = SessionEndpoint(body: body, listener: listener, connections: connections, socketPath: socketPath, logger: logger)
        guard await session.attach(endpoint) else {
            await endpoint.sessionClosed()
            throw APIError(.notFound, .unknownSession, "session '\(session.id)' was deleted as its endpoint opened.")
        }
        logger.info("session endpoint listening on \(body.socket ?? body.url)")
        return endpoint
    }

    func sessionClosed() async {
        try? await listener.close()
        let open = connections.channels.withLock { Array($0.values) }
        for connection in open { try? await connection.close() }
        if let socketPath { unlink(socketPath) }
        logger.info("session endpoint \(body.socket ?? body.url) closed")
    }
}
