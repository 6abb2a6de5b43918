package import Foundation
package import HTTPTypes
package import Services

/// A gRPC route's side of a call as a scenario writes it, its messages already encoded: what the server sends and
/// when (from the call's start), how it answers the client's later messages, and the status it ends with.
package struct RPCScript: Sendable {
    /// A response message, at an offset from its cue (the call's start, or the client's message a reply answers).
    package struct Send: Sendable, Hashable {
        /// How long after the cue, on the session's clock.
        package var offset: Duration
        /// The message's protobuf bytes, as the client receives them.
        package var message: Data
        /// The message's JSON form, as the journal shows it.
        package var json: JSONValue

        /// A message sent `offset` after its cue.
        package init(offset: Duration, message: Data, json: JSONValue) {
            self.offset = offset
            self.message = message
            self.json = json
        }
    }

    /// The answer to a later client message (of a client-streaming or bidirectional call): the first reply whose
    /// matcher takes the message's JSON form answers it.
    package struct Reply: Sendable {
        /// Matches the message's JSON form as a request body: `body` (a JSON subset) and `bodyFields`.
        package var when: RequestMatcher
        /// What the server sends, each at its offset from the message.
        package var send: [Send]
        /// Answers one message only; the replies after it answer the next.
        package var once: Bool

        /// A reply.
        package init(when: RequestMatcher, send: [Send], once: Bool = false) {
            self.when = when
            self.send = send
            self.once = once
        }
    }

    /// The server's messages from the call's start.
    package var messages: [Send]
    /// How it answers the client's messages after the first.
    package var replies: [Reply]
    /// The status the call ends with.
    package var status: RPCStatus
    /// When the status comes, from the call's start; nil: once the client has ended its side and every message due
    /// by then has gone.
    package var statusOffset: Duration?
    /// The trailing metadata sent with the status.
    package var trailers: HTTPFields

    /// A call's script.
    package init(messages: [Send] = [], replies: [Reply] = [], status: RPCStatus = .ok, statusOffset: Duration? = nil,
                trailers: HTTPFields = [:]) {
        self.messages = messages
        self.replies = replies
        self.status = status
        self.statusOffset = statusOffset
        self.trailers = trailers
    }
}

/// A gRPC method's answerer: it reads the client's messages as JSON (matching and the journal see that form) and
/// holds the route's script. GRPCFakes implements it over a descriptor set, so the session runtime links no protobuf.
package protocol RPCAnswerer: RequestAnswerer {
    /// The method's path, `/package.Service/Method`.
    var method: String { get }
    /// The server's side of the call.
    var script: RPCScript { get }
    /// Whether its descriptor set has method `path` (any of its services' methods, not only the one it answers):
    /// a live call's messages are journaled as JSON when some route's set knows them.
    func knows(_ path: String) -> Bool
    /// A request message of method `path` in its JSON form (proto3's JSON mapping), or why its bytes are not one.
    func requestJSON(_ message: Data, of path: String) -> Result<JSONValue, RPCDecodingError>
    /// A response message of method `path` in its JSON form.
    func responseJSON(_ message: Data, of path: String) -> Result<JSONValue, RPCDecodingError>
}

/// Why a message's bytes are not a message of the type expected.
package struct RPCDecodingError: Error, Sendable, Hashable {
    /// What was wrong, and where in the message.
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}
