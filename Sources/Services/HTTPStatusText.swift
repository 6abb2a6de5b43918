public import HTTPTypes

extension HTTPResponse.Status {
    /// `500 Internal Server Error`, or just `500` when the response carried no reason phrase.
    public var codeAndReason: String {
        reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)"
    }
}
