/// `"endpoint"` in `POST /v1/sessions`: give the session its own HTTP listener, which answers every request through
/// the session's network, for apps the daemon does not host (a browser, a mobile app under UI test, a Go service).
public struct SessionEndpointRequest: Codable, Sendable, Hashable {
    /// A loopback TCP port to listen on (0: any free one); nil for a Unix socket in the daemon's runtime directory.
    public var port: Int?
    /// Whether a TCP endpoint refuses requests without the session's token (default true: any local user can reach
    /// a loopback port). A Unix socket endpoint never asks for one: it is reached as the control socket is.
    public var token: Bool?
    /// The origin (`https://api.example.com`) a request made to the endpoint's own address stands for, when it names
    /// no host of the routes; default: the first origin the session's routes name.
    public var origin: String?

    /// A Unix socket endpoint when `port` is nil, else a loopback one on `port`.
    public init(port: Int? = nil, token: Bool? = nil, origin: String? = nil) {
        self.port = port
        self.token = token
        self.origin = origin
    }
}

/// A session's endpoint, as `GET /v1/sessions/{id}` shows it.
public struct SessionEndpointBody: Codable, Sendable, Hashable {
    /// The base URL to send requests to: `http://127.0.0.1:PORT`, or `http://localhost` for a Unix socket endpoint
    /// (reached with the socket, as `curl --unix-socket SOCKET http://localhost/items` does).
    public var url: String
    /// The Unix socket's path; nil for a TCP endpoint.
    public var socket: String?
    /// The loopback port; nil for a Unix socket endpoint.
    public var port: Int?
    /// The token a TCP endpoint requires, as the `Scenario-Token` header or the proxy's password; nil when it requires
    /// none.
    public var token: String?
    /// The endpoint as an HTTP proxy URL, with the token as its password: what `HTTP_PROXY` or `curl -x` take. Nil for a
    /// Unix socket endpoint.
    public var proxy: String?
    /// The origin a request to the endpoint's own address stands for, when one was given.
    public var origin: String?

    /// An endpoint as the daemon reports it.
    public init(url: String, socket: String? = nil, port: Int? = nil, token: String? = nil, proxy: String? = nil, origin: String? = nil) {
        self.url = url
        self.socket = socket
        self.port = port
        self.token = token
        self.proxy = proxy
        self.origin = origin
    }
}
