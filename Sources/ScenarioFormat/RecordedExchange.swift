public import Fakes
public import Services

/// One request a recording session sent to the live network, and what came back.
public struct RecordedExchange: Sendable {
    /// The order the request arrived in (1, 2, 3…), which replay must keep.
    public var sequence: Int
    /// The request as the Model made it (before any `forward`).
    public var request: NetworkRequest
    /// The response, or the transport error the request got instead.
    public var result: Result<NetworkResponse, TransportError>
    /// For a streamed answer: its chunks with their offsets from the head, as they arrived, and how it ended (a
    /// stream still open when the recording was saved ends with `stall`). The response's body is then empty.
    public var stream: StreamScript?
    /// For a WebSocket the server accepted: the conversation on it (the response is then an empty `101`).
    public var conversation: RecordedConversation?

    /// Creates a recorded exchange.
    public init(sequence: Int, request: NetworkRequest, result: Result<NetworkResponse, TransportError>, stream: StreamScript? = nil,
                conversation: RecordedConversation? = nil) {
        self.sequence = sequence
        self.request = request
        self.result = result
        self.stream = stream
        self.conversation = conversation
    }
}
