// swift-http-types in the Model contract: a Model builds its requests and reads its responses with its types (the
// standard HTTP vocabulary of Swift on the server), so a team uses that package too.
public import HTTPTypes

extension HTTPResponse.Status {
    /// `500 Internal Server Error`, or just `500` when the response carried no reason phrase.
    public var codeAndReason: String {
        reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)"
    }
}
