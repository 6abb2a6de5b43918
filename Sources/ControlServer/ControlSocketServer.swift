import ControlAPI
import Foundation
import HummingbirdCore
import Hummingbird
public import Logging
import NIOCore
import NIOExtras
import NIOHTTPTypesHTTP1
import NIOPosix
public import ScenarioHost
public import ServiceLifecycle
// On Linux the compiler attributes `struct stat` (used to probe a stale socket file) to CDispatch, whose headers
// bring in <sys/stat.h> first; MemberImportVisibility wants that module named.
import CDispatch

/// The control API served on a Unix socket: a path it binds (mode 0660, removed at exit) or a listening
/// descriptor handed over by socket activation. Hummingbird's own server can do neither, so this binds with
/// SwiftNIO and hands each connection to Hummingbird's HTTP/1.1 channel.
///
/// On graceful shutdown it stops accepting, lets in-flight requests finish, ends event streams, and returns.
public struct ControlSocketServer: Service, CustomStringConvertible {
    // ServiceLifecycle names a service by interpolating it; without a description that reflects over every
    // field, which was a sixth of start-up (perf, BENCHMARKS.md). The other services say the same.
    public var description: String { "ControlSocketServer(\(listener))" }

    /// Where to listen.
    public enum Listener: Sendable, CustomStringConvertible {
        /// Bind a new socket file at this path.
        case path(String)
        /// Serve on an inherited listening socket (socket activation); `path` is for messages only.
        case inherited(descriptor: Int32, path: String?)

        public var description: String {
            switch self {
            case .path(let path): path
            case .inherited(let descriptor, let path): path ?? "inherited socket (fd \(descriptor))"
            }
        }

        /// Where sessions' Unix socket endpoints go: `endpoints/` in systemd's `RUNTIME_DIRECTORY`, else beside the
        /// control socket; nil for an inherited socket of unknown path outside systemd.
        public func endpointDirectory() -> String? {
            if let runtime = ProcessInfo.processInfo.environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first { return "\(runtime)/endpoints" }
            let socket: String? = switch self {
            case .path(let path): path
            case .inherited(_, let path): path
            }
            return socket.map { ($0 as NSString).deletingLastPathComponent }.map { ($0.isEmpty ? "." : $0) + "/endpoints" }
        }
    }

    private let listener: Listener
    private let routes: ControlRoutes
    private let logger: Logger
    private let onListening: @Sendable () async -> Void

    /// Creates the server.
    /// - Parameters:
    ///   - listener: The socket to serve on.
    ///   - host: The engine the API drives.
    ///   - configuration: Version, default session and reload.
    ///   - logger: For connection-level failures.
    ///   - onListening: Called once the socket accepts connections (the daemon sends READY=1 there).
    public init(listener: Listener, host: SessionHost, configuration: ControlConfiguration, logger: Logger,
                onListening: @escaping @Sendable () async -> Void = {}) {
        self.listener = listener
        self.routes = ControlRoutes(host: host, configuration: configuration)
        self.logger = logger
        self.onListening = onListening
    }

    /// Starts the event loops the server will use, so that their threads set up (a tenth of a start's CPU) while
    /// the caller does other work, such as loading scenarios, before ``run()`` binds the socket.
    public static func startEventLoops() {
        _ = MultiThreadedEventLoopGroup.singleton.next()
    }

    public func run() async throws {
        let responder = routes.makeRouter().buildResponder()
        let logger = logger
        let access = routes.configuration.access
        let requestTimeout = TimeAmount(routes.configuration.requestTimeout)
        let metrics = routes.metrics
        let explorations = routes.explorations
        let bodyTimeout = TimeAmount(routes.configuration.bodyTimeout)
        // One responder per connection, knowing its peer: the kernel's word on who is calling (SO_PEERCRED) is fixed
        // when the client connects, so it is asked once, as the connection is set up on its event loop, rather than
        // with a hop to that loop for every change (perf, issue 32).
        let respond = { @Sendable (peer: PeerCredentials?) -> HTTP1Channel in
            // What a change's log line says of its peer, made once for the connection rather than for each line.
            let peerText = peer.map(\.description) ?? "an unknown peer", peerMetadata = peer?.metadata ?? [:]
            return HTTP1Channel(responder: { request, responseWriter, channel in
                let context = ControlRequestContext(source: .init(channel: channel, logger: logger))
                let mutating = request.method != .get && request.method != .head
                let response: Response
                if let peer, !access.allows(peer) {
                    logger.warning("refused \(request.method) \(request.uri.path) from \(peer)", metadata: peer.metadata)
                    response = APIError(.forbidden, .notAllowed, access.refusal(for: peer)).response
                } else {
                    if mutating {
                        logger.info("\(request.method) \(request.uri.path) by \(peerText)", metadata: peerMetadata)
                    } else {
                        logger.debug("request \(request.method) \(request.uri.path)")
                    }
                    do {
                        response = try await responder.respond(to: request, context: context)
                    } catch {
                        // The error middleware answers everything; this is the last resort.
                        var last = APIErrorMiddleware<ControlRequestContext>.apiError(for: error, request: request)
                        last.status = .internalServerError
                        response = last.response
                    }
                }
                metrics.countRequest(method: request.method.rawValue, route: context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched", status: response.status.code)
                try await responseWriter.write(response: response.head, body: response.body)
            }, configuration: .init())  // no idle timeout of Hummingbird's: RequestTimeoutHandler closes idle connections
        }

        let settledStates = routes.host.settledStates, journals = routes.host.journals
        // Hummingbird's HTTP/1.1 pipeline, and state reads of settled sessions and journal reads answered on the event loop. Both
        // handlers of ours take NIOHTTP1's parts, before Hummingbird converts them, so the request timeout sees
        // the state reads answered there too. With an allow-list every request must reach the peer check, so then
        // every request goes to the router.
        let setUp = { @Sendable (channel: any Channel) -> EventLoopFuture<Connection> in
            metrics.connectionOpened()
            channel.closeFuture.whenComplete { _ in metrics.connectionClosed() }
            return PeerCredentials.future(of: channel).flatMap { peer in
                let http = respond(peer)
                return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(ClientGoneWatch(eventLoop: channel.eventLoop), position: .first)
                    let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
                    try pipeline.addHandler(RequestTimeoutHandler(timeout: requestTimeout), position: .before(conversion))
                    try pipeline.addHandler(RequestFramingHandler(bodyLimit: JSONBody.limit, bodyTimeout: bodyTimeout), position: .before(conversion))
                    try pipeline.addHandler(EventStreamHeartbeat(), position: .before(conversion))
                    let connection = Connection(http: http, channel: value)
                    guard !access.isRestricted else { return connection }
                    try pipeline.addHandler(DirectReadResponder(states: settledStates, journals: journals, metrics: metrics), position: .before(conversion))
                    return connection
                }
            }
        }

        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let bootstrap = ServerBootstrap(group: group)
            // Room for a thousand clients connecting at once (the kernel caps it at net.core.somaxconn).
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)

        let server: NIOAsyncChannel<Connection, Never>
        var createdPath: String?
        switch listener {
        case .path(let path):
            server = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: Self.isStaleSocket(path)) { channel in
                setUp(channel)
            }
            createdPath = path
            // Owner and group may connect; others may not.
            guard chmod(path, 0o660) == 0 else {
                try? await server.channel.close()
                throw ControlServerError(message: "cannot set mode 0660 on \(path): \(String(cString: strerror(errno)))")
            }
        case .inherited(let descriptor, _):
            server = try await bootstrap.bind(descriptor, cleanupExistingSocketFile: false) { channel in
                setUp(channel)
            }
        }
        defer { if let createdPath { unlink(createdPath) } }

        await onListening()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { connections in
                do {
                    try await server.executeThenClose { inbound in
                        for try await connection in inbound {
                            let executor = EventLoopTaskExecutor(connection.channel.channel.eventLoop)
                            connections.addTask(executorPreference: executor) {
                                await connection.http.handle(value: connection.channel, logger: logger)
                            }
                        }
                    }
                } catch {
                    logger.error("the control socket \(listener) stopped accepting: \(error)")
                }
            }
        } onGracefulShutdown: {
            // Closes the listening socket and lets each connection finish the request it is serving; explorations
            // end, so those following one finish too.
            quiescing.initiateShutdown(promise: nil)
            Task { await explorations.cancelAll() }
        }
    }

    /// An accepted connection and the HTTP channel, with its peer's responder, that serves it.
    struct Connection: Sendable {
        let http: HTTP1Channel
        let channel: HTTP1Channel.Value
    }

    /// A socket file left by a daemon that died may be replaced; anything else at the path is kept (bind fails).
    static func isStaleSocket(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else { return false }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer -> Bool in
            let bytes = Array(path.utf8)
            guard bytes.count < buffer.count else { return false }
            buffer.copyBytes(from: bytes)
            return true
        }
        guard fits else { return false }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // Nobody answers: stale. Someone answers: another daemon is serving there, leave it alone.
        return connected != 0
    }
}

extension PeerCredentials {
    /// `peer_uid`, `peer_gid` and `peer_pid`: journal fields `PEER_UID`, `PEER_GID`, `PEER_PID`.
    var metadata: Logger.Metadata {
        ["peer_uid": "\(uid)", "peer_gid": "\(gid)", "peer_pid": "\(pid)"]
    }
}

/// The control server could not start; the message says where and why.
public struct ControlServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
