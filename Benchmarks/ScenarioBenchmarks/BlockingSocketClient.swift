#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 keep-alive client on a Unix socket that sends one fixed request and reads each response into a
/// buffer it owns. Written by hand because it must allocate nothing per request: the malloc counter then sees the
/// server's allocations alone (AsyncHTTPClient would add its own to every figure).
final class BlockingSocketClient {
    private let descriptor: Int32
    private let request: [UInt8]
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
    private var bodyRange = 0..<0

    /// Connects to `path`, retrying for about a second while the server starts.
    init(path: String, request text: String) throws {
        request = Array(text.utf8)
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        for attempt in 0..<100 {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return }
            if attempt == 99 { break }
            usleep(10_000)
        }
        let reason = String(cString: strerror(errno))
        close(descriptor)
        buffer.deallocate()
        throw BenchmarkInputError("cannot connect to \(path): \(reason)")
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Sends the request and reads the whole response.
    /// - Returns: the status code.
    func roundTrip() throws -> Int {
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + sent, bytes.count - sent)
                guard count > 0 else { throw BenchmarkInputError("write failed: \(String(cString: strerror(errno)))") }
                sent += count
            }
        }
        var received = 0
        var headEnd = 0
        var contentLength = 0
        while headEnd == 0 || received < headEnd + contentLength {
            guard received < buffer.count else { throw BenchmarkInputError("response larger than \(buffer.count) bytes") }
            let count = read(descriptor, buffer.baseAddress! + received, buffer.count - received)
            guard count > 0 else { throw BenchmarkInputError("the server closed the connection") }
            received += count
            if headEnd == 0, let end = endOfHead(in: received) {
                headEnd = end
                contentLength = self.contentLength(before: end)
            }
        }
        guard received == headEnd + contentLength else { throw BenchmarkInputError("more bytes than one response") }
        bodyRange = headEnd..<received
        // "HTTP/1.1 200": the three digits after the first space.
        return (9..<12).reduce(0) { $0 * 10 + Int(buffer[$1] &- 0x30) }
    }

    /// The body of the last response (a copy; for setting up, not for measured code).
    var lastBody: [UInt8] { Array(buffer[bodyRange]) }

    /// The offset just past the blank line that ends the head, if it has arrived.
    private func endOfHead(in count: Int) -> Int? {
        guard count >= 4 else { return nil }
        for index in 0...(count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// The Content-Length header's value (name matched without regard to case); 0 when absent.
    private func contentLength(before end: Int) -> Int {
        let name = Array("content-length:".utf8)
        var lineStart = 0
        for index in 0..<end where buffer[index] == 10 {
            let line = lineStart..<index
            lineStart = index + 1
            guard line.count > name.count,
                  name.indices.allSatisfy({ buffer[line.lowerBound + $0] | 0x20 == name[$0] | 0x20 }) else { continue }
            var value = 0
            for position in (line.lowerBound + name.count)..<line.upperBound where (0x30...0x39).contains(buffer[position]) {
                value = value * 10 + Int(buffer[position] - 0x30)
            }
            return value
        }
        return 0
    }
}
