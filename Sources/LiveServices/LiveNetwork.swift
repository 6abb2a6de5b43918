import AsyncHTTPClient
import Foundation
import HTTPTypes
public import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
public import Services

/// The network as it is: requests go to real servers over AsyncHTTPClient (HTTP/1.1 and HTTP/2, TLS with the
/// system's trust store). Failures reach the Model as the ``TransportError`` cases of the `Services` protocols; the
/// underlying error is logged with the URL, since the Model only sees the case.
///
/// It owns an `HTTPClient`; call ``shutdown()`` when done. Building one opens no socket: the first request does.
public final class LiveNetwork: NetworkService {
    private let client: HTTPClient
    let configuration: LiveNetworkConfiguration
    let logger: Logger

    /// Creates a live network on NIO's shared event loops.
    public init(configuration: LiveNetworkConfiguration = .default, logger: Logger = Logger(label: "scenariod.live-network")) {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.timeout = .init(connect: TimeAmount(configuration.connectTimeout),
                                            read: TimeAmount(configuration.readTimeout))
        clientConfiguration.redirectConfiguration = configuration.redirects > 0
            ? .follow(max: configuration.redirects, allowCycles: false) : .disallow
        // AHC otherwise retries a refused connection until the connect timeout; a Model should learn at once.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        // An https origin forwarded to another https server connects there but keeps the origin's name for TLS
        // (SNI and certificate), as curl's --connect-to does.
        for (origin, target) in configuration.forward {
            if let origin = URLComponents(string: origin), let target = URLComponents(string: target),
               origin.scheme == "https", target.scheme == "https", let name = origin.host, let address = target.host {
                clientConfiguration.dnsOverride[name] = address
            }
        }
        self.client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
        self.configuration = configuration
        self.logger = logger
    }

    /// Closes the client's connections; requests after this fail with `connectionRefused`.
    public func shutdown() async {
        do {
            try await client.shutdown()
        } catch {
            logger.debug("live network shut down uncleanly: \(error)")
        }
    }

    public func send(_ request: NetworkRequest) async throws(TransportError) -> NetworkResponse {
        let response = try await execute(request)
        do {
            let body = try await response.body.collect(upTo: configuration.maximumBodySize)
            return NetworkResponse(head: Self.head(of: response), body: Data(buffer: body))
        } catch {
            throw failure(error, of: request)
        }
    }

    /// The head at once, then the body as the server sends it: each chunk read from the connection when the
    /// consumer asks for it, so a consumer that stops reading holds the connection back rather than fill memory.
    public func stream(_ request: NetworkRequest) async throws(TransportError) -> NetworkStream {
        let response = try await execute(request)
        return NetworkStream(head: Self.head(of: response), source: LiveBody(response.body, request: request, network: self))
    }

    /// Sends `request` and returns the response once its head is in.
    private func execute(_ request: NetworkRequest) async throws(TransportError) -> HTTPClientResponse {
        guard !Task.isCancelled else { throw .cancelled }
        let (url, authority) = forwarded(request.url)
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.head.method.rawValue)
        for field in request.head.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        // A forwarded request keeps its origin's Host, so a server that picks its site by name answers as it would.
        if let authority, !outgoing.headers.contains(name: "Host") { outgoing.headers.add(name: "Host", value: authority) }
        if !request.body.isEmpty { outgoing.body = .bytes(ByteBuffer(bytes: request.body)) }
        do {
            return try await client.execute(outgoing, deadline: .distantFuture, logger: logger)
        } catch {
            throw failure(error, of: request)
        }
    }

    private static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
    }

    /// The transport error `error` is for the Model, logged with the request's URL and the underlying cause.
    func failure(_ error: any Error, of request: NetworkRequest) -> TransportError {
        let transportError = Task.isCancelled ? .cancelled : TransportError(error)
        logger.notice("\(request.head.method.rawValue) \(request.url) failed: \(transportError.rawValue): \(TransportError.cause(of: error))",
                      metadata: ["http_url": "\(request.url)", "transport_error": "\(transportError.rawValue)"])
        return transportError
    }

    /// The URL to connect to, and the original authority (`host[:port]`) to send as `Host` when
    /// ``LiveNetworkConfiguration/forward`` names the URL's origin. An https origin forwarded to an https target keeps
    /// its own host in the URL (the client's DNS override connects to the target), so TLS names the origin.
    func forwarded(_ url: String) -> (url: String, authority: String?) {
        for (origin, target) in configuration.forward where url == origin || url.hasPrefix(origin + "/") {
            guard let from = URLComponents(string: origin), let to = URLComponents(string: target), let host = from.host else {
                return (target + url.dropFirst(origin.count), nil)
            }
            let authority = from.port.map { "\(host):\($0)" } ?? host
            if from.scheme == "https", to.scheme == "https" {
                let port = to.port.map { ":\($0)" } ?? ""
                return ("https://\(host)\(port)" + url.dropFirst(origin.count), authority)
            }
            return (target + url.dropFirst(origin.count), authority)
        }
        return (url, nil)
    }
}

/// A live response's body, read from the connection one chunk per ask. An actor, because the client's iterator is
/// not Sendable; dropping it (the consumer let go) cancels the response's connection.
private actor LiveBody: NetworkStreamSource {
    private var chunks: HTTPClientResponse.Body.AsyncIterator?
    private let request: NetworkRequest
    private let network: LiveNetwork

    init(_ body: HTTPClientResponse.Body, request: NetworkRequest, network: LiveNetwork) {
        self.chunks = body.makeAsyncIterator()
        self.request = request
        self.network = network
    }

    func next() async throws(TransportError) -> Data? {
        guard var iterator = chunks else { return nil }
        do {
            let buffer = try await iterator.next(isolation: self)
            chunks = buffer == nil ? nil : iterator
            return buffer.map { Data(buffer: $0) }
        } catch {
            chunks = nil
            throw network.failure(error, of: request)
        }
    }

    nonisolated func consumerLeft() {
        Task { await self.close() }
    }

    private func close() { chunks = nil }
}
