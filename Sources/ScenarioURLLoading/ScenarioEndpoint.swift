public import Foundation

/// Where a session endpoint listens and the token it asks for: what ``ScenarioURLProtocol`` sends an app's requests to.
///
/// Write it as `scenarioctl session show ID --proxy` prints it, `http://scenariod:TOKEN@127.0.0.1:PORT`, or without
/// the credentials for an endpoint that asks for no token. URLSession reaches loopback ports only, not Unix sockets, so
/// the session's endpoint is a port: `scenarioctl session new SCENARIO --endpoint 0`.
public struct ScenarioEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's base URL, `http://127.0.0.1:PORT`, without credentials.
    public var url: URL
    /// The session's token, sent as the `Scenario-Token` header; nil for an endpoint that asks for none.
    public var token: String?

    /// The environment variable an app under test reads its endpoint from: ``init(processEnvironment:arguments:)``.
    public static let environmentVariable = "SCENARIOD_SESSION_ENDPOINT"
    /// The launch argument an app under test reads its endpoint from, followed by the endpoint:
    /// `-scenario-endpoint http://scenariod:TOKEN@127.0.0.1:PORT`, as a UI test's `XCUIApplication.launchArguments` gives it.
    public static let launchArgument = "-scenario-endpoint"

    /// An endpoint at `url` asking for `token`.
    public init(url: URL, token: String? = nil) {
        self.url = url
        self.token = token
    }

    /// The endpoint `text` names: `http://scenariod:TOKEN@127.0.0.1:PORT` (the token as the password) or
    /// `http://127.0.0.1:PORT`; nil when it is not an http URL with a host.
    public init?(_ text: String) {
        guard var components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              components.scheme?.lowercased() == "http", let host = components.host, !host.isEmpty else { return nil }
        let token = components.password.flatMap { $0.isEmpty ? nil : $0 }
        components.user = nil
        components.password = nil
        components.path = ""
        components.query = nil
        guard let url = components.url else { return nil }
        self.init(url: url, token: token)
    }

    /// The endpoint the process was given: the launch argument ``launchArgument`` and its value, else the environment
    /// variable ``environmentVariable``; nil when neither is there.
    /// - Parameters:
    ///   - environment: The process's environment.
    ///   - arguments: The process's arguments, as it was launched.
    public init?(processEnvironment environment: [String: String] = ProcessInfo.processInfo.environment,
                 arguments: [String] = ProcessInfo.processInfo.arguments) {
        if let index = arguments.firstIndex(of: Self.launchArgument), arguments.indices.contains(index + 1) {
            self.init(arguments[index + 1])
        } else if let text = environment[Self.environmentVariable] {
            self.init(text)
        } else {
            return nil
        }
    }

    /// The endpoint as the proxy URL it was written as, its token included: what ``init(_:)`` reads.
    public var description: String {
        guard let token, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.user = "scenariod"
        components.password = token
        return components.string ?? url.absoluteString
    }
}
