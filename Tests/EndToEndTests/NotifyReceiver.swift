import Foundation
import Synchronization

/// A test-owned `NOTIFY_SOCKET`: a datagram Unix socket that collects what the daemon tells systemd.
final class NotifyReceiver: Sendable {
    let path: String
    private let descriptor: Int32
    private let received = Mutex<[String]>([])

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Every message received so far, oldest first.
    var messages: [String] { received.withLock { $0 } }

    /// Waits until a message containing `text` arrives (or was already received); nil after `limit`, which only
    /// guards against a hang: a passing test never waits that long.
    func waitFor(_ text: String, limit: Duration = .seconds(30)) async -> String? {
        if let found = messages.first(where: { $0.contains(text) }) { return found }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let message = await receive(timeoutMilliseconds: 200)
            if let message, message.contains(text) { return message }
        }
        return nil
    }

    /// Receives one datagram off Swift concurrency's threads (poll and recv block).
    private func receive(timeoutMilliseconds: Int32) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [descriptor, self] in
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return continuation.resume(returning: nil) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { return continuation.resume(returning: nil) }
                let message = String(decoding: buffer.prefix(count), as: UTF8.self)
                self.received.withLock { $0.append(message) }
                continuation.resume(returning: message)
            }
        }
    }
}
