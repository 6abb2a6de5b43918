import Foundation

/// A plain Unix-socket connection for what an HTTP client hides: half-sent requests, streams read byte by byte.
final class RawConnection {
    private let descriptor: Int32

    init(socket path: String) throws {
        descriptor = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPIPE) }
            sent += count
        }
    }

    /// Reads until the text received contains `marker` or the peer closes; `limit` only guards against a hang.
    func read(until marker: String, limit: Duration = .seconds(30)) async -> String {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var received = [UInt8]()
                let deadline = ContinuousClock.now + limit
                while ContinuousClock.now < deadline {
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) > 0 else { continue }
                    var buffer = [UInt8](repeating: 0, count: 8192)
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count <= 0 { break }
                    received += buffer.prefix(count)
                    if String(decoding: received, as: UTF8.self).contains(marker) { break }
                }
                continuation.resume(returning: String(decoding: received, as: UTF8.self))
            }
        }
    }
}
