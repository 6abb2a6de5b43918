import CSystemd
import Foundation

/// Sockets handed over by socket activation (`LISTEN_FDS`).
public enum ListenSockets {
    /// The listening descriptors passed to this process, starting at 3. Call it once at the very top of `main`,
    /// before any thread starts: it unsets the `LISTEN_*` variables, and `unsetenv` is not thread-safe.
    public static func take() -> [Int32] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { SD_LISTEN_FDS_START + $0 }
    }
}
