public import Foundation
public import HTTPTypes

/// A part of a streamed answer as it arrives: the head first, then each chunk when the session's clock delivers it.
/// What a client outside a session (a session endpoint) is handed of a stream, part by part.
public enum NetworkStreamPart: Sendable {
    /// The answer's status and header fields.
    case head(HTTPResponse)
    /// The next bytes of its body.
    case chunk(Data)
}
