import Fakes
import Foundation
import HTTPTypes
import Services
import SessionRuntime
import Testing

@Suite struct RoutedNetworkTests {
    let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
    let journal = Recorder<NetworkExchange>()

    func network(_ routes: [Route], unmatched: TransportError = .connectionRefused) -> RoutedNetwork {
        let journal = journal
        return RoutedNetwork(routes: routes, unmatched: unmatched, clock: clock) { await journal.append($0) }
    }

    func ok(_ status: Int = 200, _ body: String = "", delay: Duration = .zero) -> RouteOutcome {
        RouteOutcome(.response(NetworkResponse(status: status, body: Data(body.utf8))), delay: delay)
    }

    func request(_ method: HTTPRequest.Method = .get, _ url: String, headers: HTTPFields = [:], body: String = "") -> NetworkRequest {
        NetworkRequest(method: method, url: URL(string: url)!, headerFields: headers, body: Data(body.utf8))
    }

    /// An IPv6 literal keeps its brackets in the URL the request addresses, with or without a port.
    @Test func anIPv6HostKeepsItsBrackets() {
        #expect(request(.get, "http://[::1]:8080/x?a=1").url == "http://[::1]:8080/x?a=1")
        #expect(request(.get, "https://[2001:db8::7]/feed.json").url == "https://[2001:db8::7]/feed.json")
        #expect(request(.get, "https://www.example.com:8443/").url == "https://www.example.com:8443/")
    }

    /// Issue 27, item 5: an encoder's key order or spacing is not a different request.
    @Test func twoEncodersWithDifferentKeyOrdersMakeOneJournal() async throws {
        let fake = network([Route(name: "rate", matcher: RequestMatcher(method: "POST", body: ["driver": 5]), outcomes: [ok(201)])])
        _ = try await fake.send(request(.post, "https://x.example/rate", body: #"{"driver":5,"bus":4}"#))
        _ = try await fake.send(request(.post, "https://x.example/rate", body: "{ \"bus\": 4,\n  \"driver\": 5 }"))
        _ = try? await fake.send(request(.post, "https://x.example/rate", body: "not JSON, kept as sent"))
        let bodies = await journal.values.map(\.body)
        #expect(bodies == [#"{"bus":4,"driver":5}"#, #"{"bus":4,"driver":5}"#, "not JSON, kept as sent"])
        #expect(await journal.values.prefix(2).allSatisfy { $0.route == "rate" })
        // The original bytes are still shown, where they differ from the canonical form.
        #expect(await journal.values.map(\.sentBody) == [#"{"driver":5,"bus":4}"#, "{ \"bus\": 4,\n  \"driver\": 5 }", nil])
    }

    @Test func theFirstMatchingRouteAnswersAndIsJournaled() async throws {
        let fake = network([
            Route(name: "post", matcher: RequestMatcher(method: "POST"), outcomes: [ok(201)]),
            Route(name: "feed", matcher: RequestMatcher(method: "GET", url: .exact("https://x.example/feed")), outcomes: [ok(200, "feed")]),
            Route(name: "any", matcher: RequestMatcher(), outcomes: [ok(204)]),
        ])
        let response = try await fake.send(request(.get, "https://x.example/feed"))
        #expect(response.head.status.code == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "feed")
        let entry = try #require(await journal.values.first)
        #expect(entry.route == "feed")
        #expect(entry.status == 200)
        #expect(entry.sequence == 1)
        #expect(entry.method == "GET")
        #expect(entry.url == "https://x.example/feed")
    }

    @Test func queryHeadersAndJSONBodySubsetAllTakePart() async throws {
        let matcher = RequestMatcher(method: "POST", url: .pattern(try URLPattern(#"https://x\.example/v[0-9]+/items"#)),
                                     query: ["page": "2"], headers: ["x-token": "abc"], body: ["user": "alice", "tags": ["a"]])
        let fake = network([Route(name: "items", matcher: matcher, outcomes: [ok()])])
        let good = request(.post, "https://x.example/v2/items?page=2&sort=new", headers: [HTTPField.Name("X-Token")!: "abc"],
                           body: #"{"user":"alice","tags":["a"],"extra":true}"#)
        #expect(try await fake.send(good).head.status.code == 200)

        let badBody = request(.post, "https://x.example/v2/items?page=2", headers: [HTTPField.Name("X-Token")!: "abc"],
                              body: #"{"user":"bob","tags":["a"]}"#)
        await #expect(throws: TransportError.connectionRefused) { try await fake.send(badBody) }
        let miss = try #require(await journal.values.last?.nearMisses?.first)
        // The path that differed, not the whole body.
        #expect(miss == NearMiss(route: "items", field: "/body/user", expected: "alice", actual: "bob"))
    }

    @Test func anUnmatchedRequestGetsTheScenariosErrorAndNearMissesClosestFirst() async throws {
        let fake = network([
            Route(name: "other-host", matcher: RequestMatcher(method: "GET", url: .exact("https://y.example/feed")), outcomes: [ok()]),
            Route(name: "post-only", matcher: RequestMatcher(method: "POST", url: .exact("https://x.example/feed")), outcomes: [ok()]),
            Route(name: "needs-page", matcher: RequestMatcher(method: "GET", url: .exact("https://x.example/feed"), query: ["page": "1"]), outcomes: [ok()]),
        ], unmatched: .offline)
        await #expect(throws: TransportError.offline) { try await fake.send(request(.get, "https://x.example/feed")) }
        let entry = try #require(await journal.values.first)
        #expect(entry.isUnmatched)
        #expect(entry.fault == "offline")
        #expect(entry.nearMisses == [
            NearMiss(route: "needs-page", field: "/query/page", expected: "1", actual: "(absent)"),
            NearMiss(route: "other-host", field: "/url", expected: "https://y.example/feed", actual: "https://x.example/feed"),
            NearMiss(route: "post-only", field: "/method", expected: "POST", actual: "GET"),
        ])
    }

    @Test func aSequenceRepeatsItsLastResponseOrCycles() async throws {
        let repeating = network([Route(name: "r", matcher: RequestMatcher(), outcomes: [ok(200), ok(500)])])
        var codes: [Int] = []
        for _ in 0..<4 { codes.append(try await repeating.send(request(.get, "https://x.example/")).head.status.code) }
        #expect(codes == [200, 500, 500, 500])

        let cycling = network([Route(name: "c", matcher: RequestMatcher(), outcomes: [ok(200), ok(500)], afterLast: .cycle)])
        codes = []
        for _ in 0..<4 { codes.append(try await cycling.send(request(.get, "https://x.example/")).head.status.code) }
        #expect(codes == [200, 500, 200, 500])
    }

    @Test func aCausalRouteAnswersByTheWritesBeforeItNotByItsOwnCount() async throws {
        var second = ok(200, "after one"), third = ok(200, "after two")
        second.after = .init(route: "rate")
        third.after = .init(route: "rate", times: 2)
        let fake = network([
            Route(name: "rating", matcher: RequestMatcher(method: "GET"), outcomes: [ok(200, "before"), second, third]),
            Route(name: "rate", matcher: RequestMatcher(method: "POST"), outcomes: [ok(201)]),
        ])
        func read() async throws -> String { String(decoding: try await fake.send(request(.get, "https://x.example/r")).body, as: UTF8.self) }
        #expect(try await [read(), read(), read()] == ["before", "before", "before"])
        _ = try await fake.send(request(.post, "https://x.example/r"))
        #expect(try await [read(), read()] == ["after one", "after one"])
        _ = try await fake.send(request(.post, "https://x.example/r"))
        _ = try await fake.send(request(.post, "https://x.example/r"))
        #expect(try await read() == "after two")
    }

    @Test func aFaultIsThrownAndJournaled() async throws {
        let fake = network([Route(name: "reset", matcher: RequestMatcher(), outcomes: [RouteOutcome(.fault(.connectionReset))])])
        await #expect(throws: TransportError.connectionReset) { try await fake.send(request(.get, "https://x.example/")) }
        #expect(await journal.values.first?.fault == "connectionReset")
        #expect(await journal.values.first?.route == "reset")
    }

    @Test func aDelayedResponseArrivesOnlyWhenTheClockPassesTheDelay() async throws {
        let fake = network([Route(name: "slow", matcher: RequestMatcher(), outcomes: [ok(200, delay: .seconds(2))])])
        let arrived = Recorder<Int>()
        let clock = clock
        clock.spawn {
            let response = try? await fake.send(request(.get, "https://x.example/"))
            await arrived.append(response?.head.status.code ?? 0)
        }
        await clock.settle()
        #expect(await arrived.values.isEmpty)
        #expect(await journal.values.count == 1)
        await clock.advance(by: .milliseconds(1_999))
        #expect(await arrived.values.isEmpty)
        await clock.advance(by: .milliseconds(1))
        #expect(await arrived.values == [200])
    }

    @Test func aCancelledCallerGetsCancelled() async throws {
        let fake = network([Route(name: "slow", matcher: RequestMatcher(), outcomes: [ok(200, delay: .seconds(2))])])
        let clock = clock
        let outcome = Recorder<TransportError?>()
        let task = clock.spawn {
            do { _ = try await fake.send(request(.get, "https://x.example/")); await outcome.append(nil) }
            catch let error as TransportError { await outcome.append(error) }
            catch { Issue.record("unexpected \(error)") }
        }
        await clock.settle()
        task.cancel()
        await task.value
        #expect(await outcome.values == [.cancelled])
    }

    @Test func queryItemsAndHeadersMatchByShape() async throws {
        let fake = network([
            Route(name: "page", matcher: RequestMatcher(
                query: ["page": .compare(.gte, 2), "q": .contains("swift"), "debug": .absent],
                headers: ["Accept": .regex(try URLPattern("application/(feed\\+)?json")), "X-Trace": .present]),
                  outcomes: [ok(200)]),
        ])
        let accepted = try await fake.send(request(.get, "https://x.example/items?page=3&q=learn+swift",
                                                   headers: [.accept: "application/feed+json", HTTPField.Name("X-Trace")!: "1"]))
        #expect(accepted.head.status.code == 200)
        for (url, field, expected, actual) in [
            ("https://x.example/items?page=1&q=swift", "/query/page", ">= 2", "1"),
            ("https://x.example/items?page=2&q=rust", "/query/q", "contains swift", "rust"),
            ("https://x.example/items?page=2&q=swift&debug=1", "/query/debug", "absent", "1"),
        ] {
            await #expect(throws: TransportError.connectionRefused) {
                try await fake.send(request(.get, url, headers: [.accept: "application/json", HTTPField.Name("X-Trace")!: "1"]))
            }
            let miss = try #require(await journal.values.last?.nearMisses?.first)
            #expect(miss.field == field && miss.expected == expected && miss.actual == actual, "\(miss)")
        }
        _ = try? await fake.send(request(.get, "https://x.example/items?page=2&q=swift", headers: [.accept: "text/html"]))
        let miss = try #require(await journal.values.last?.nearMisses?.first)
        #expect(miss.field == "/headers/accept" && miss.expected == "regex application/(feed\\+)?json" && miss.actual == "text/html")
    }
}
