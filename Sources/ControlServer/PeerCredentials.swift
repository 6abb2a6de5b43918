import Foundation
import NIOCore

/// Who is on the other end of a control connection, as the kernel says (`SO_PEERCRED`): it cannot be forged by
/// the client, so it is what access decisions and the audit log rest on.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The client's process id (in the daemon's pid namespace; 0 when the client is in another one).
    public var pid: Int32
    /// The client's user id.
    public var uid: UInt32
    /// The client's primary group id.
    public var gid: UInt32

    /// The credentials of `channel`'s peer, or nil when the channel is not a Unix socket.
    static func future(of channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let credentials: EventLoopFuture<KernelCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials
            .map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
            .recover { _ in nil }
    }

    public var description: String { "uid \(uid) gid \(gid) pid \(pid)" }
}

/// `struct ucred` as `SO_PEERCRED` fills it: pid, uid, gid, three 32-bit fields in this order. Glibc declares it
/// only under `_GNU_SOURCE`, which Swift's Glibc module does not set, so its layout is spelled out here.
private struct KernelCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
