public import Foundation
public import HTTPTypes

/// How a gRPC call ended: its status code (0 `OK` to 16 `UNAUTHENTICATED`, as gRPC numbers them) and message.
public struct RPCStatus: Sendable, Hashable, Codable {
    /// The status code.
    public var code: Int
    /// The status message, possibly empty.
    public var message: String

    /// A status.
    public init(code: Int, message: String = "") {
        self.code = code
        self.message = message
    }

    /// `OK`: the call succeeded.
    public static let ok = RPCStatus(code: 0)

    /// gRPC's names of the codes, each at its number: `codeNames[5]` is `NOT_FOUND`.
    public static let codeNames = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
        "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// The code's name (`NOT_FOUND`), or its number for a code gRPC does not name.
    public var codeName: String { Self.codeNames.indices.contains(code) ? Self.codeNames[code] : String(code) }
}

/// What the server of a gRPC call sends, in order: its metadata (once, first), messages, and its status (once, last).
public enum RPCEvent: Sendable, Hashable {
    /// The server's initial metadata.
    case metadata(HTTPFields)
    /// One response message, as its protobuf bytes.
    case message(Data)
    /// The call's end: its status and trailing metadata.
    case status(RPCStatus, trailers: HTTPFields)
}

/// Where an ``RPCCall``'s messages go and its answers come from: a scenario's route, or a real server.
public protocol RPCChannel: Sendable {
    /// The server's next event, waiting for it; nil after the status.
    /// - Throws: ``TransportError`` when the connection broke; `.cancelled` when the calling task was cancelled.
    func receive() async throws(TransportError) -> RPCEvent?
    /// Sends one more request message (its protobuf bytes).
    /// - Throws: ``TransportError`` when the call has ended or broke.
    func send(_ message: Data) async throws(TransportError)
    /// Ends the client's side of the call: it sends no more messages.
    func finishSending() async
    /// The consumer let go of the call: cancel it if it has not ended. Called once, from any thread; it must not wait.
    func consumerLeft()
}

/// A gRPC call as ``NetworkService/rpc(_:first:)`` opens it: messages as protobuf bytes, the server's answers as
/// ``RPCEvent``s. A Model does not use it directly: grpc-swift's client does, through ScenarioGRPC's transport.
public struct RPCCall: Sendable {
    /// The call's two directions.
    public let channel: any RPCChannel

    /// A call over `channel`.
    public init(channel: any RPCChannel) {
        self.channel = channel
    }
}
