import AsyncHTTPClient
import ControlAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The dashboard bridge's side of the daemon's socket: sends a browser's request on and streams the answer back,
/// and answers `503 daemonUnavailable` within a second when the daemon is stopped or restarting, rather than
/// holding the request until it is back. A request that changes something is sent only after the daemon has just
/// answered a health probe, so a click made during an outage is refused at once, never applied later.
struct DaemonLink: Sendable {
    /// What a request does, which decides how long it may wait.
    enum Kind {
        /// A read: answered at once by a daemon that is up.
        case read
        /// A change: sent only to a daemon that answered the probe just before.
        case change
        /// An event stream: until the page leaves (`until` completes), when the bridge closes its side to the daemon.
        case stream(until: EventLoopFuture<Void>)

        var isChange: Bool { if case .change = self { true } else { false } }
    }

    let socketPath: String
    /// Reads and changes: few at a time, each answered at once.
    private let http: HTTPClient
    /// Event streams, in a pool of their own: however many pages are open, a click never waits for a connection
    /// behind them (the daemon bounds the streams it serves).
    private let streams: HTTPClient
    private let base: String

    /// How long the bridge waits to learn whether the daemon is there: a connection and a health answer.
    static let probeLimit = TimeAmount.milliseconds(900)
    /// How long a read or a change may take once the daemon has taken it.
    static let answerLimit = TimeAmount.seconds(60)

    init(socketPath: String) {
        self.socketPath = socketPath
        // AsyncHTTPClient speaks http+unix:// with the percent-encoded socket path as the host.
        self.base = "http+unix://" + (socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketPath)
        // No retried connections: a missing or refused socket means no daemon now, and the default client retries
        // until the deadline (for an event stream, a day), holding a click to send once the daemon is back.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = Self.probeLimit
        self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.streamLimit
        self.streams = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The most event streams the bridge carries at once: more than the daemon serves by default.
    static let streamLimit = 1_024
    /// The most chunks of an event stream the bridge holds for a browser that reads slower than they come.
    static let relayLimit = 1_024

    /// Stops the clients; the bridge calls it once its server has stopped.
    func shutdown() async throws {
        try await http.shutdown()
        try await streams.shutdown()
    }

    /// Sends `request` to the daemon and streams its answer back (event streams too).
    func forward(_ request: Request, kind: Kind) async throws -> Response {
        if kind.isChange, let down = await probe() { return down }
        var outgoing = HTTPClientRequest(url: base + request.uri.description)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        // Only what the daemon reads: never the browser's Authorization or cookies.
        for name in [HTTPField.Name.contentType, .accept, HTTPField.Name("Last-Event-ID")!] {
            if let value = request.headers[name] { outgoing.headers.add(name: name.rawName, value: value) }
        }
        // Read whole, not streamed: a stream can be read once, and bodies are small JSON (the daemon refuses more
        // than 1 MiB anyway).
        let body = try await request.body.collect(upTo: Self.bodyLimit)
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        let answer: HTTPClientResponse
        do {
            if case .stream = kind {
                answer = try await streams.execute(outgoing, timeout: .hours(24))
            } else {
                answer = try await http.execute(outgoing, timeout: Self.answerLimit)
            }
        } catch {
            return unavailable(error, sent: kind.isChange)
        }
        var headers = HTTPFields()
        for header in answer.headers where !Self.dropped.contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
        }
        let relayed: ResponseBody
        if case .stream(let left) = kind {
            relayed = ResponseBody(asyncSequence: Self.relay(answer.body, until: left))
        } else {
            relayed = ResponseBody(asyncSequence: answer.body)
        }
        return Response(status: .init(code: Int(answer.status.code)), headers: headers, body: relayed)
    }

    /// `body` relayed until the browser leaves or the bridge stops. Hummingbird's writer reads in the request's task
    /// and is told of neither, so the relay ends the sequence it reads; ending it cancels the read of the daemon's
    /// answer, which closes that connection to the daemon at once. A browser that falls ``relayLimit`` chunks behind
    /// is cut off rather than buffered for: its page reconnects with `Last-Event-ID`, and the daemon resumes there.
    private static func relay(_ body: HTTPClientResponse.Body, until left: EventLoopFuture<Void>) -> AsyncThrowingStream<ByteBuffer, any Error> {
        let (relayed, sink) = AsyncThrowingStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingOldest(Self.relayLimit))
        let reader = Task {
            do {
                for try await chunk in body.cancelOnGracefulShutdown() {
                    if case .dropped = sink.yield(chunk) { break }
                }
                sink.finish()
            } catch {
                sink.finish(throwing: error)
            }
        }
        sink.onTermination = { _ in reader.cancel() }
        left.whenComplete { _ in sink.finish() }
        return relayed
    }

    /// Nil when the daemon answers its health endpoint within ``probeLimit``; else the 503 to give instead.
    private func probe() async -> Response? {
        do {
            let answer = try await http.execute(HTTPClientRequest(url: base + "/v1/health"), timeout: Self.probeLimit)
            _ = try await answer.body.collect(upTo: 1 << 16)
            return nil
        } catch {
            return unavailable(error, sent: false)
        }
    }

    private func unavailable(_ error: any Error, sent: Bool) -> Response {
        let reason: String
        if let code = (error as? IOError)?.errnoCode, code == ENOENT || code == ECONNREFUSED {
            reason = code == ENOENT ? "no socket at \(socketPath)" : "nothing listens on \(socketPath)"
        } else if let error = error as? HTTPClientError, [.connectTimeout, .deadlineExceeded, .readTimeout].contains(error) {
            reason = "no answer from \(socketPath) in time"
        } else if let error = error as? HTTPClientError, error == .remoteConnectionClosed {
            reason = "the daemon at \(socketPath) closed the connection"
        } else {
            reason = "\(socketPath): \(error)"
        }
        let applied = sent ? " The change was sent and may have been applied; read the session before trying again." : " Nothing was sent."
        return DashboardBridge.answer(.serviceUnavailable, .daemonUnavailable,
            "the daemon is stopped or restarting (\(reason)).\(applied) The dashboard reconnects when it is back.")
    }

    /// One byte past the daemon's own limit, so the daemon is the one that refuses, with its message.
    private static let bodyLimit = (1 << 20) + 1

    /// Hop-by-hop headers, and cookies: the bridge's answers never set one.
    private static let dropped: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "set-cookie"]
}
