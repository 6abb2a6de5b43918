public import Fakes
public import Foundation
public import Services

/// What clients did to a session, in order, each change with the virtual time once it had settled and the journal
/// entries it caused. A session is deterministic, so replaying the same changes from its scenario's start rebuilds
/// it at any step, byte for byte (``Session/rewind(to:)``).
public struct SessionHistory: Sendable {
    /// One change a client made, with what it takes to make it again.
    public enum Change: Sendable {
        /// The session started (step 0): the Model's start-up.
        case start
        case action(name: String, arguments: JSONValue)
        case advanceClock(by: Duration)
        /// A play of the clock: moves a client made one after another, marked as a play's, with nothing between;
        /// a replay makes each move again, as the client did.
        case play(moves: [Duration])
        case setClock(to: Date)
        case setKeyValue(key: String, value: JSONValue)
        case removeKeyValue(key: String)
        case replaceServiceState(service: String, state: JSONValue)
        /// A JSON merge patch of a service's state: as the client sent it, and the whole state it made, which a
        /// replay stores again.
        case patchServiceState(service: String, patch: JSONValue, state: JSONValue)
        /// A route set on the running session: as the client wrote it, and as it was read.
        case setRoute(name: String, json: JSONValue, route: Route)
        case removeRoute(name: String)
        case setNetworkConditions(NetworkConditions)
        /// Bytes a client pushed into an open stream (numbered by its request's journal sequence number).
        case pushToStream(stream: Int, bytes: Data)
        /// A client ended an open stream: closed (a WebSocket with its frame), or dropped with a fault.
        case closeStream(stream: Int, fault: TransportError?, frame: WebSocketClose?)
        /// A request a client sent through the session's network from outside (``Session/sendFromOutside(_:keep:)``).
        case sendRequest(NetworkRequest)
        /// A WebSocket a client opened through the session's network from outside (``Session/openSocketFromOutside(_:receive:)``).
        case openSocket(NetworkRequest)
        /// A message that client sent on it (numbered by its handshake's journal sequence number).
        case sendToSocket(socket: Int, message: WebSocketMessage)
        /// That client closed it.
        case closeSocket(socket: Int, frame: WebSocketClose)
        case clearJournal
        case reset
    }

    /// A change and what it led to.
    public struct Step: Sendable {
        /// 0 for the start, then 1, 2…
        public var number: Int
        public var change: Change
        /// The session's virtual time once the change had settled.
        public var time: Date
        /// The journal sequence numbers of the requests the change caused (made, or delivered, while it ran).
        public var requests: [Int]
    }

    /// The most steps one history keeps; past it, the session cannot be rewound until it is deleted, so a session
    /// driven for days cannot grow without bound.
    public static let limit = 10_000

    /// Every step, the start first.
    public private(set) var steps: [Step] = []
    /// Whether a step past ``limit``, or past ``byteLimit``, was not kept.
    public private(set) var overflowed = false
    /// The bytes the steps keep (``HeldBytes/history``).
    public private(set) var bytes = 0
    /// The most bytes the steps keep (``HostLimits/historyBytes``).
    public let byteLimit: Int

    /// An empty history that keeps at most `byteLimit` bytes of steps.
    init(byteLimit: Int = HostLimits.default.historyBytes) {
        self.byteLimit = byteLimit
    }

    /// Why a step was not kept, when one was not.
    var overflowReason: String? {
        guard overflowed else { return nil }
        return steps.count > Self.limit
            ? "its history passed \(Self.limit) steps, the most one session keeps"
            : "its history passed \(ByteCountText.format(byteLimit)), the most one session keeps (the daemon's --history-bytes)"
    }

    mutating func append(_ change: Change, time: Date, requests: [Int]) {
        let size = change.heldBytes + requests.count * 8
        guard !overflowed, steps.count <= Self.limit, bytes + size <= byteLimit || steps.isEmpty else {
            overflowed = true
            return
        }
        bytes += size
        steps.append(Step(number: steps.count, change: change, time: time, requests: requests))
    }

    /// Adds `moves` of a play to the newest step when it is a play too, so a long play stays one step.
    /// - Returns: false when the newest step is something else (then the caller appends a step).
    mutating func extendPlay(with moves: [Duration], time: Date, requests: [Int]) -> Bool {
        guard let last = steps.indices.last, case .play(let earlier) = steps[last].change else { return false }
        let size = moves.count * 16 + requests.count * 8
        guard !overflowed, bytes + size <= byteLimit else {
            overflowed = true
            return true
        }
        bytes += size
        steps[last].change = .play(moves: earlier + moves)
        steps[last].time = time
        steps[last].requests += requests
        return true
    }

    mutating func removeAll() {
        steps.removeAll()
        bytes = 0
        overflowed = false
    }
}
