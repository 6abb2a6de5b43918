import CSystemd
import Foundation

/// Tells the service manager about the daemon's state through `sd_notify` (a no-op without `$NOTIFY_SOCKET`).
public struct ServiceNotifier: Sendable {
    /// Creates a notifier.
    public init() {}

    /// The service is up: scenarios loaded and the socket accepting.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// Re-reading configuration; `ready(status:)` follows.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }
    /// Shutting down.
    public func stopping() { send("STOPPING=1") }
    /// A human status line for `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(text)") }
    /// Still alive.
    public func watchdog() { send("WATCHDOG=1") }

    private func send(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// How often to ping the watchdog: half of `WATCHDOG_USEC`, when it is set for this process; nil otherwise.
    public static func watchdogInterval() -> Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec / 2))
    }
}
