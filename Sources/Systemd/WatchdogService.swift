public import ServiceLifecycle

/// Pings the systemd watchdog at half of `WATCHDOG_USEC` until shutdown; returns at once when there is no watchdog.
public struct WatchdogService: Service, CustomStringConvertible {
    public var description: String { "WatchdogService" }

    private let notifier: ServiceNotifier
    private let interval: Duration?

    /// Creates the service, reading the watchdog interval from the environment.
    public init(notifier: ServiceNotifier) {
        self.notifier = notifier
        self.interval = ServiceNotifier.watchdogInterval()
    }

    public func run() async throws {
        guard let interval else {
            // Nothing to do, but returning would end the service group; wait for shutdown instead.
            try? await gracefulShutdown()
            return
        }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            notifier.watchdog()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
