public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `URLProtocol` that answers every http and https request of a `URLSession` from a scenariod session, through the
/// session's endpoint: the app's own networking code runs unchanged, and the session's routes, clock, journal and
/// dashboard see each request it makes.
///
/// Register it on the configuration the app builds its session from:
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// ScenarioURLProtocol.register(on: configuration, endpoint: endpoint)
/// let session = URLSession(configuration: configuration)
/// ```
///
/// Each request goes to the endpoint with its whole URL in the `Scenario-URL` header, so the session matches exactly
/// what the app asked for. A transport fault the scenario gives (no route matched, a `timeout`, `offline`) reaches the
/// app as the `URLError` a real network would give; a response reaches it with the app's own URL.
///
/// Foundation only, so it builds wherever the app does: Linux, and Apple platforms.
public final class ScenarioURLProtocol: URLProtocol {
    /// The header a forwarded request carries its whole URL in.
    static let urlHeader = "Scenario-URL"

    /// The endpoint ``register(on:endpoint:)`` was last given. Process-wide because a URLProtocol is: Foundation makes
    /// each instance itself, with no way back to the configuration that registered it (on Linux it does not even see
    /// the configuration's `httpAdditionalHeaders`), so an app under test has one session endpoint, as it has one
    /// launch argument.
    private static let registered = RegisteredEndpoint()

    /// `registered`'s value under a lock: NSLock rather than Synchronization's Mutex, which an app that supports
    /// iOS 17 or macOS 14 could not link (`@unchecked Sendable`: every access takes the lock).
    private final class RegisteredEndpoint: @unchecked Sendable {
        private let lock = NSLock()
        private var endpoint: ScenarioEndpoint?

        var value: ScenarioEndpoint? {
            get { lock.withLock { endpoint } }
            set { lock.withLock { endpoint = newValue } }
        }
    }

    /// Requests to the endpoint itself go without this protocol: one URLSession for the process, as URLSession asks.
    private static let forwardingSession = URLSession(configuration: .ephemeral)
    private var forwarding: Task<Void, Never>?

    /// The protocol instance, for the forwarded request's completion to finish: URLProtocol is not Sendable, but the
    /// loading system hands an instance to one thread at a time, and once the forwarded request completes, finishing
    /// it is the only thing done with it (`@unchecked` for that reason).
    private struct Loading: @unchecked Sendable {
        weak var loader: ScenarioURLProtocol?
    }

    /// Makes every http and https request of sessions built from `configuration` go to `endpoint`'s session.
    /// - Parameters:
    ///   - configuration: The configuration the app builds its `URLSession` from; this protocol goes first in its
    ///     `protocolClasses`.
    ///   - endpoint: The session endpoint; by default the one the process was started with
    ///     (``ScenarioEndpoint/init(processEnvironment:arguments:)``). With none, the configuration is left as it was,
    ///     so an app registers unconditionally and runs on the real network outside its UI tests. The endpoint is the
    ///     process's: registering another sends every registered configuration's requests there.
    /// - Returns: Whether the configuration now goes to a session.
    @discardableResult
    public static func register(on configuration: URLSessionConfiguration,
                                endpoint: ScenarioEndpoint? = ScenarioEndpoint(processEnvironment: ProcessInfo.processInfo.environment,
                                                                               arguments: ProcessInfo.processInfo.arguments)) -> Bool {
        guard let endpoint else { return false }
        registered.value = endpoint
        configuration.protocolClasses = [ScenarioURLProtocol.self] + (configuration.protocolClasses ?? []).filter { $0 != ScenarioURLProtocol.self }
        return true
    }

    /// Takes every http and https request but those already on their way to an endpoint.
    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        // A request already on its way to an endpoint is not taken again.
        return request.value(forHTTPHeaderField: urlHeader) == nil
    }

    /// The request as it is: the session matches what the app sent.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Sends the request to the session's endpoint, with its whole URL in the `Scenario-URL` header.
    override public func startLoading() {
        guard let url = request.url else { return fail(URLError(.badURL)) }
        guard let endpoint = Self.registered.value
            ?? ScenarioEndpoint(processEnvironment: ProcessInfo.processInfo.environment, arguments: ProcessInfo.processInfo.arguments) else {
            return fail(URLError(.cannotFindHost, userInfo: [NSLocalizedDescriptionKey:
                "ScenarioURLProtocol has no session endpoint for \(url): register it with one, or start the app with \(ScenarioEndpoint.launchArgument) URL or \(ScenarioEndpoint.environmentVariable)=URL."]))
        }
        var forwarded = URLRequest(url: endpoint.url.appendingPathComponent(url.path.isEmpty ? "/" : url.path))
        forwarded.httpMethod = request.httpMethod ?? "GET"
        for (name, value) in request.allHTTPHeaderFields ?? [:] { forwarded.setValue(value, forHTTPHeaderField: name) }
        forwarded.setValue(url.absoluteString, forHTTPHeaderField: Self.urlHeader)
        if let token = endpoint.token { forwarded.setValue(token, forHTTPHeaderField: "Scenario-Token") }
        forwarded.httpBody = Self.body(of: request)
        forwarded.timeoutInterval = request.timeoutInterval
        forwarding = Self.forward(forwarded, answering: url, to: Loading(loader: self))
    }

    /// Sends `request` to the endpoint from a task of its own: Foundation calls startLoading on its sessions' queue, and
    /// on Linux starting another session's request from that queue waits on itself (a crash in dispatch_sync).
    private static func forward(_ request: URLRequest, answering url: URL, to loading: Loading) -> Task<Void, Never> {
        Task {
            do {
                let answer = try await forwardingSession.data(for: request)
                loading.loader?.finish(url: url, data: answer.0, response: answer.1, error: nil)
            } catch {
                loading.loader?.finish(url: url, data: nil, response: nil, error: error)
            }
        }
    }

    /// Gives up the request: its forwarding is cancelled.
    override public func stopLoading() {
        forwarding?.cancel()
        forwarding = nil
    }

    private func finish(url: URL, data: Data?, response: URLResponse?, error: (any Error)?) {
        if let error { return fail(error) }
        guard let answer = response as? HTTPURLResponse else { return fail(URLError(.badServerResponse)) }
        var fields: [String: String] = [:]
        for (name, value) in answer.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        // The session's transport fault, as the app would meet it on a real network.
        if let fault = fields.first(where: { $0.key.caseInsensitiveCompare("Scenario-Fault") == .orderedSame })?.value {
            return fail(URLError(Self.code(of: fault), userInfo: [NSURLErrorFailingURLErrorKey: url,
                                                                 NSLocalizedDescriptionKey: String(decoding: data ?? Data(), as: UTF8.self)]))
        }
        guard let delivered = HTTPURLResponse(url: url, statusCode: answer.statusCode, httpVersion: "HTTP/1.1", headerFields: fields) else {
            return fail(URLError(.badServerResponse))
        }
        client?.urlProtocol(self, didReceive: delivered, cacheStoragePolicy: .notAllowed)
        if let data, !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
        client?.urlProtocolDidFinishLoading(self)
    }

    private func fail(_ error: any Error) {
        client?.urlProtocol(self, didFailWithError: error)
    }

    /// A scenario's transport fault (`TransportError`'s names) as the URLError a real network gives.
    static func code(of fault: String) -> URLError.Code {
        switch fault {
        case "timeout": .timedOut
        case "connectionReset": .networkConnectionLost
        case "offline": .notConnectedToInternet
        case "cancelled": .cancelled
        default: .cannotConnectToHost
        }
    }

    /// The request's body: URLSession hands a protocol its body as a stream more often than as data.
    private static func body(of request: URLRequest) -> Data? {
        if let body = request.httpBody { return body }
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while stream.hasBytesAvailable {
            let read = stream.read(&buffer, maxLength: buffer.count)
            guard read > 0 else { break }
            body.append(buffer, count: read)
        }
        return body
    }
}
