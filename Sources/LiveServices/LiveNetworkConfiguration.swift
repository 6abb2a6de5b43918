/// How a ``LiveNetwork`` reaches servers: time limits, redirects, and origins to send elsewhere.
public struct LiveNetworkConfiguration: Sendable, Hashable {
    /// How long establishing a connection (TCP and TLS) may take.
    public var connectTimeout: Duration
    /// How long the server may stay silent while a response is awaited or being read.
    public var readTimeout: Duration
    /// How many redirects to follow; 0 returns 3xx responses to the Model as they are.
    public var redirects: Int
    /// Origins (`https://api.example`) whose requests are sent to another origin (`http://127.0.0.1:8080`)
    /// instead, as curl's `--connect-to` does; the Model and the journal still see the original URL.
    public var forward: [String: String]
    /// The largest response body accepted; a larger one fails the request with `connectionReset`.
    public var maximumBodySize: Int

    /// The defaults: 10 s to connect, 30 s of silence, 5 redirects, no forwarding, 32 MiB bodies.
    public static let `default` = LiveNetworkConfiguration()

    /// Creates a configuration.
    public init(connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(30), redirects: Int = 5,
                forward: [String: String] = [:], maximumBodySize: Int = 32 << 20) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.redirects = redirects
        self.forward = forward
        self.maximumBodySize = maximumBodySize
    }
}
