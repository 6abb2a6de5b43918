import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore

/// A real HTTP server on 127.0.0.1 with a port the kernel picks, for the duration of `body`; `server` upgrades
/// WebSockets too when it is `.http1WebSocketUpgrade`.
func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>, server: HTTPServerBuilder = .http1(),
    _ body: @Sendable (_ origin: String) async throws -> Result
) async throws -> Result {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        defer { group.cancelAll() }
        return try await body("http://127.0.0.1:\(port)")
    }
}

/// A loopback port nothing listens on: bound by the kernel's choice, then closed.
func closedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
    return Int(UInt16(bigEndian: address.sin_port))
}
