import Foundation
import HTTPTypes
import Hummingbird
import LiveServices
import Services
import Testing

/// The live network against a server this test starts on loopback: what a Model sees for each way a request ends.
@Suite struct LiveNetworkTests {
    /// Signals the test once the server is holding a request open.
    final class Arrivals: Sendable {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    static func router(arrivals: Arrivals = Arrivals()) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("feed.json") { request, _ -> Response in
            let echoed = request.headers[.accept] ?? ""
            return Response(status: .ok, headers: [.contentType: "application/json", HTTPField.Name("X-Echo-Accept")!: echoed],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"items":[]}"#)))
        }
        router.get("host") { request, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: request.head.authority ?? "")))
        }
        router.post("echo") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .created, body: .init(byteBuffer: body))
        }
        router.get("missing") { _, _ in Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such thing"))) }
        router.get("broken") { _, _ in Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "oops"))) }
        router.get("old") { _, _ in Response(status: .found, headers: [.location: "/feed.json"]) }
        router.get("slow") { _, _ -> Response in
            arrivals.continuation.yield()
            try await Task.sleep(for: .seconds(30))
            return Response(status: .ok)
        }
        return router
    }

    static func get(_ url: String, headers: HTTPFields = [:]) -> NetworkRequest {
        NetworkRequest(method: .get, url: URL(string: url)!, headerFields: headers)
    }

    @Test func aSuccessfulRequestReturnsStatusHeadersAndBody() async throws {
        try await withLoopbackServer(Self.router()) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            let response = try await network.send(Self.get("\(origin)/feed.json", headers: [.accept: "application/feed+json"]))
            #expect(response.head.status.code == 200)
            #expect(response.head.headerFields[.contentType] == "application/json")
            #expect(response.head.headerFields[HTTPField.Name("X-Echo-Accept")!] == "application/feed+json")
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"items":[]}"#)

            let posted = try await network.send(NetworkRequest(method: .post, url: URL(string: "\(origin)/echo")!, body: Data("hello".utf8)))
            #expect(posted.head.status.code == 201)
            #expect(String(decoding: posted.body, as: UTF8.self) == "hello")
        }
    }

    @Test func clientAndServerErrorsAreResponsesNotTransportErrors() async throws {
        try await withLoopbackServer(Self.router()) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            let missing = try await network.send(Self.get("\(origin)/missing"))
            #expect(missing.head.status.code == 404)
            #expect(String(decoding: missing.body, as: UTF8.self) == "no such thing")
            let broken = try await network.send(Self.get("\(origin)/broken"))
            #expect(broken.head.status.code == 500)
            #expect(String(decoding: broken.body, as: UTF8.self) == "oops")
        }
    }

    @Test func redirectsAreFollowedUnlessTurnedOff() async throws {
        try await withLoopbackServer(Self.router()) { origin in
            let following = LiveNetwork()
            let notFollowing = LiveNetwork(configuration: .init(redirects: 0))
            defer { Task { await following.shutdown(); await notFollowing.shutdown() } }
            #expect(try await following.send(Self.get("\(origin)/old")).head.status.code == 200)
            let redirect = try await notFollowing.send(Self.get("\(origin)/old"))
            #expect(redirect.head.status.code == 302)
            #expect(redirect.head.headerFields[.location] == "/feed.json")
        }
    }

    @Test func aSilentServerTimesOut() async throws {
        try await withLoopbackServer(Self.router()) { origin in
            let network = LiveNetwork(configuration: .init(readTimeout: .milliseconds(200)))
            defer { Task { await network.shutdown() } }
            await #expect(throws: TransportError.timeout) { try await network.send(Self.get("\(origin)/slow")) }
        }
    }

    @Test func nothingListeningIsConnectionRefused() async throws {
        let port = try closedLoopbackPort()
        let network = LiveNetwork(configuration: .init(connectTimeout: .seconds(5)))
        defer { Task { await network.shutdown() } }
        await #expect(throws: TransportError.connectionRefused) { try await network.send(Self.get("http://127.0.0.1:\(port)/feed.json")) }
    }

    @Test func cancellingTheCallerCancelsTheRequest() async throws {
        let arrivals = Arrivals()
        try await withLoopbackServer(Self.router(arrivals: arrivals)) { origin in
            let network = LiveNetwork()
            defer { Task { await network.shutdown() } }
            let request = Task { () async throws(TransportError) -> NetworkResponse in
                try await network.send(Self.get("\(origin)/slow"))
            }
            var iterator = arrivals.stream.makeAsyncIterator()
            await iterator.next()  // the server holds the request: it is in flight
            request.cancel()
            await #expect(throws: TransportError.cancelled) { try await request.value }
        }
    }

    @Test func forwardingSendsAnOriginElsewhereAndKeepsThePath() async throws {
        try await withLoopbackServer(Self.router()) { origin in
            let network = LiveNetwork(configuration: .init(forward: ["https://www.cocoawithlove.com": origin]))
            defer { Task { await network.shutdown() } }
            let response = try await network.send(Self.get("https://www.cocoawithlove.com/feed.json"))
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"items":[]}"#)
        }
    }

    /// As curl's --connect-to: the server that receives a forwarded request sees the origin's name, not its own.
    @Test func forwardingKeepsTheOriginalHost() async throws {
        try await withLoopbackServer(Self.router()) { origin in
            let network = LiveNetwork(configuration: .init(forward: [
                "https://www.cocoawithlove.com": origin, "http://api.example:8080": origin,
            ]))
            defer { Task { await network.shutdown() } }
            let host = try await network.send(Self.get("https://www.cocoawithlove.com/host"))
            #expect(String(decoding: host.body, as: UTF8.self) == "www.cocoawithlove.com")
            let withPort = try await network.send(Self.get("http://api.example:8080/host"))
            #expect(String(decoding: withPort.body, as: UTF8.self) == "api.example:8080")
        }
    }
}
