public import Foundation
// swift-http-types in the Model contract: a Model builds its requests and reads its responses with its types (the
// standard HTTP vocabulary of Swift on the server), so a team uses that package too.
public import HTTPTypes

/// An HTTP response as the ``NetworkService`` returns it: the head from swift-http-types plus the body bytes.
public struct NetworkResponse: Sendable, Hashable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The response body; empty when there is none.
    public var body: Data

    /// Creates a response.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
    }

    /// Creates a response from a status code, header fields and body.
    public init(status: Int, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.init(head: HTTPResponse(status: .init(code: status), headerFields: headerFields), body: body)
    }
}
