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

extension ListenSockets {
    /// The filesystem path a listening Unix socket is bound to, for messages; nil for other sockets.
    public static func path(of descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard found == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return path.isEmpty ? nil : path
    }
}
