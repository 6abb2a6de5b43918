import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import Services
import Synchronization

struct Dashboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the daemon's dashboard in a browser, through a bridge on a loopback port.",
        discussion: """
        The daemon serves the dashboard on its control socket (/dashboard/); a browser reaches it through this \
        bridge, which listens on 127.0.0.1 only and answers API requests only when they carry this run's secret: open \
        the URL it prints (the secret is in its fragment, which a browser never sends to a server; it is never a \
        cookie). A printed URL opens one tab: the page trades its secret for the tab's own, so the copy the \
        browser's history keeps opens nothing; each use prints the next URL, and a tab opens more with "Open in a \
        new tab". Requests for another Host or from another Origin get 403, and those without a tab's secret 401; \
        none reaches the daemon. While the daemon is stopped, API requests get 503 daemonUnavailable at once and \
        the page says so until it is back. Runs until interrupted (Ctrl-C).
        """)
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: SessionOptions
    @Option(help: "The loopback port to listen on (default: one the system picks).") var port: Int = 0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port).") }
    }

    func run() async throws {
        let bound = BoundPort()
        // Unreserved characters stay as they are, so a session id reads in the URL as it was given.
        let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let session = target.session.map { "&session=\($0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? $0)" } ?? ""
        let link = { @Sendable (token: String) in "http://127.0.0.1:\(bound.port)/dashboard/#token=\(token)\(session)" }
        // Written at once, unbuffered: a script reading the URL from a pipe must not wait for more output.
        let tokens = DashboardTokens(printedUsed: { token in
            FileHandle.standardOutput.write(Data("A tab opened that URL, which opens one tab only; for another tab: \(link(token))\n".utf8))
        })
        let daemon = DaemonLink(socketPath: options.socketPath)
        var logger = Logger(label: "scenarioctl.dashboard")
        logger.logLevel = .warning
        let bridge = DashboardBridge(tokens: tokens, port: { bound.port }, daemon: daemon)
        let app = Application(
            responder: bridge,
            server: .http1(configuration: .init(additionalChannelHandlers: [BrowserLeftWatch()])),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "scenarioctl-dashboard"),
            onServerRunning: { channel in
                bound.port = channel.localAddress?.port ?? port
                FileHandle.standardOutput.write(Data("""
                    Dashboard of \(options.socketPath): \(link(tokens.printed))
                    Open it in a browser on this machine (it opens one tab; each use prints the next); Ctrl-C stops the bridge.

                    """.utf8))
            },
            logger: logger)
        do {
            try await app.runService()
        } catch {
            try? await daemon.shutdown()
            throw error
        }
        try await daemon.shutdown()
    }
}

/// The port the bridge bound, set once the server runs (the system picks it for --port 0) and read per request.
/// A mutex, not an actor: the responder reads it synchronously on every request.
private final class BoundPort: Sendable {
    private let value = Mutex(0)
    var port: Int {
        get { value.withCheckedLock { $0 } }
        set { value.withCheckedLock { $0 = newValue } }
    }
}
