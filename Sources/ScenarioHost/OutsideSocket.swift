public import Services
import Synchronization

/// A WebSocket a client outside the session opened through the session's network (a session endpoint's upgrade),
/// named by its handshake's journal sequence number as the session's streams are.
public final class OutsideSocket: Sendable {
    /// Its handshake's journal sequence number.
    public let sequence: Int
    let connection: WebSocketConnection

    init(sequence: Int, connection: WebSocketConnection) {
        self.sequence = sequence
        self.connection = connection
    }

    /// What the session's side of a socket does, for its client: sends a message, closes, or breaks off.
    public enum Event: Sendable {
        case message(WebSocketMessage)
        /// The server closed the connection, with its close frame (nil: the session ended it, reset or rewound).
        case closed(WebSocketClose?)
        case broken(TransportError)
    }
}

/// The session's open sockets of outside clients, by sequence number: a client's message goes to the socket it
/// opened only while that socket is the session's (a reset or rewind opens new ones, which a replay's steps reach).
/// Shared with the session's task that opens each, so a Mutex rather than the actor's state.
final class OutsideSockets: Sendable {
    private let open = Mutex<[Int: OutsideSocket]>([:])

    func add(_ socket: OutsideSocket) { open.withCheckedLock { $0[socket.sequence] = socket } }
    func socket(_ sequence: Int) -> OutsideSocket? { open.withCheckedLock { $0[sequence] } }
    /// Removes `socket`, not a later generation's socket of the same number.
    func remove(_ socket: OutsideSocket) {
        open.withCheckedLock { if $0[socket.sequence] === socket { $0[socket.sequence] = nil } }
    }
    func removeAll() { open.withCheckedLock { $0 = [:] } }
}
