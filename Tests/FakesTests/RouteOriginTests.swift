import Fakes
import Foundation
import Services
import SessionRuntime
import Testing

/// The origins a session endpoint maps a request for its own address onto: those of the routes' exact URLs and of
/// patterns that start with a literal origin, in the order the routes are tried, each once.
@Suite struct RouteOriginTests {
    @Test(arguments: [
        (#"https://api\.example\.com/items/\d+"#, "https://api.example.com/items/"),
        (#"^https://api.example.com/v[0-9]+/x"#, "https://api.example.com/v"),
        (#"https?://api\.example\.com/"#, "http"),
        (#"https://(a|b)\.example/"#, "https://"),
        (#"https://[^/]+/x"#, "https://"),
        (#"http://localhost:8080/.*"#, "http://localhost:8080/"),
    ])
    func aPatternsLiteralStartIsItsOriginsText(_ pattern: String, _ literal: String) {
        #expect(RouteOrigin.literalPrefix(of: pattern) == literal)
    }

    @Test func anOriginKeepsItsSchemeAndPortAndBracketsAnIPv6Host() throws {
        #expect(RouteOrigin(url: "https://API.Example.com/items")?.description == "https://api.example.com")
        #expect(RouteOrigin(url: "http://localhost:8080/x")?.description == "http://localhost:8080")
        #expect(RouteOrigin(url: "http://[::1]:9/x")?.description == "http://[::1]:9")
        #expect(RouteOrigin(url: "wss://assistant.example/v1/presence")?.description == "wss://assistant.example")
        #expect(RouteOrigin(url: "wss://assistant.example")?.forWebSocket(false).description == "https://assistant.example")
        #expect(RouteOrigin(url: "http://localhost:8080")?.forWebSocket(true).description == "ws://localhost:8080")
        #expect(RouteOrigin(url: "ftp://files.example/x") == nil)
        #expect(RouteOrigin(url: "https://") == nil)
        #expect(RouteOrigin(url: "/items") == nil)
    }

    @Test func aNetworkListsItsRoutesOriginsInOrderEachOnce() async throws {
        let answer = RouteOutcome(.response(NetworkResponse(status: 200)))
        func route(_ name: String, _ url: RequestMatcher.URLMatch?) -> Route {
            Route(name: name, matcher: RequestMatcher(url: url), outcomes: [answer])
        }
        let network = RoutedNetwork(routes: [
            route("a", .exact("https://shop.example/items")),
            route("b", .pattern(try URLPattern(#"https://search\.example/q/\w+"#))),
            route("c", .exact("https://shop.example/basket")),
            route("d", nil),
            route("e", .pattern(try URLPattern(#"https?://x\.example/"#))),
            route("f", .exact("wss://assistant.example/v1/presence")),
        ], clock: VirtualClock(start: Date(timeIntervalSince1970: 0), mode: .frozen)) { _ in }
        #expect(await network.routeOrigins().map(\.description) == ["https://shop.example", "https://search.example", "wss://assistant.example"])
        // A route set or removed while the session runs changes them at once.
        await network.setRoute(route("g", .exact("http://localhost:8080/x")))
        #expect(await network.routeOrigins().map(\.description) == ["http://localhost:8080", "https://shop.example", "https://search.example", "wss://assistant.example"])
        _ = await network.removeRoute(named: "b")
        #expect(await network.routeOrigins().map(\.description) == ["http://localhost:8080", "https://shop.example", "wss://assistant.example"])
    }
}
