import Foundation
import Synchronization

/// A test-owned `NOTIFY_SOCKET`: a datagram Unix socket that collects what the daemon tells systemd.
final class NotifyReceiver: Sendable {
    let path: String
    private let descriptor: Int32
    /// Apart from the receiver, so that the reading thread does not keep it alive (its deinit closes the socket).
    private final class Inbox: Sendable { let messages = Mutex<[String]>([]) }
    private let inbox = Inbox()

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
        let reading = descriptor, inbox = inbox
        Thread.detachNewThread { Self.drain(reading, into: inbox) }
    }

    deinit {
        // Ends the reader (recv on a socket shut down returns 0), which closes the descriptor itself: closed here, its
        // number could be reused before the reader's next recv, which would then read another socket's datagrams.
        shutdown(descriptor, Int32(SHUT_RDWR))
        unlink(path)
    }

    /// Every message received so far, oldest first.
    var messages: [String] { inbox.messages.withLock { $0 } }

    /// Waits until a message containing `text` arrives (or was already received); nil after `limit`, which only
    /// guards against a hang: a passing test never waits that long.
    func waitFor(_ text: String, limit: Duration = .seconds(30)) async -> String? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let found = messages.first(where: { $0.contains(text) }) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return messages.first { $0.contains(text) }
    }

    /// Reads every datagram as it comes, on a thread of its own (recv blocks), until the socket is closed. A reader
    /// that read only while a test waited let the queue fill (net.unix.max_dgram_qlen is 10 here), and the daemon's
    /// next sd_notify then blocked in sendmsg: a daemon stopped with SIGTERM never got past STOPPING=1.
    private static func drain(_ descriptor: Int32, into inbox: Inbox) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                let message = String(decoding: buffer.prefix(count), as: UTF8.self)
                inbox.messages.withLock { $0.append(message) }
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                close(descriptor)
                return
            }
        }
    }
}
