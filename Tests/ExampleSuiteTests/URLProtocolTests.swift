import ControlAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ScenarioClient
import ScenarioTesting
import ScenarioURLLoading
import Services
import Testing

/// An app the daemon does not host, its URLSession answered by a session through ScenarioURLProtocol: the app's code
/// unchanged, every request journaled as sent from outside, faults as the URLErrors a real network gives.
@Suite struct URLProtocolTests {
    @Test func anAppsURLSessionIsAnsweredByItsSession() async throws {
        try await withScenario("offline-demo", endpoint: .init(port: 0)) { session in
            let listener = try #require(session.endpoint)
            let endpoint = try #require(ScenarioEndpoint(listener.proxy ?? ""))
            #expect(endpoint.url.absoluteString == listener.url && endpoint.token == listener.token)

            let configuration = URLSessionConfiguration.ephemeral
            ScenarioURLProtocol.register(on: configuration, endpoint: endpoint)
            let app = URLSession(configuration: configuration)
            var request = URLRequest(url: URL(string: "https://www.cocoawithlove.com/feed.json")!)
            request.setValue("application/feed+json", forHTTPHeaderField: "Accept")
            let (data, response) = try await app.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200 && http.url?.absoluteString == "https://www.cocoawithlove.com/feed.json")
            #expect(String(decoding: data, as: UTF8.self).contains("Testing actors in Swift"))

            // No route for it: what a real network says when no server answers.
            do {
                _ = try await app.data(from: URL(string: "https://www.cocoawithlove.com/feed.xml")!)
                Issue.record("a request no route answers must fail as a real one would")
            } catch let error as URLError {
                #expect(error.code == .cannotConnectToHost)
            }
            let sent = try await session.client.journal(session: session.id).entries.filter { $0.outside == true }
            #expect(sent.map(\.url) == ["https://www.cocoawithlove.com/feed.json", "https://www.cocoawithlove.com/feed.xml"])
            #expect(sent.first?.headers.contains("Accept: application/feed+json") == true)
            #expect(sent.allSatisfy { !$0.headers.contains { $0.lowercased().hasPrefix("scenario-") } })
        }
    }

    @Test func anEndpointIsReadFromALaunchArgumentOrTheEnvironment() {
        let proxy = "http://scenariod:0123456789abcdef0123456789abcdef@127.0.0.1:4567"
        let argued = ScenarioEndpoint(processEnvironment: [:], arguments: ["App", "-scenario-endpoint", proxy])
        #expect(argued?.url.absoluteString == "http://127.0.0.1:4567" && argued?.token == "0123456789abcdef0123456789abcdef")
        #expect(argued?.description == proxy)
        let environment = ScenarioEndpoint(processEnvironment: ["SCENARIOD_SESSION_ENDPOINT": "http://127.0.0.1:9"], arguments: ["App"])
        #expect(environment == ScenarioEndpoint(url: URL(string: "http://127.0.0.1:9")!))
        #expect(ScenarioEndpoint(processEnvironment: [:], arguments: ["App"]) == nil)
        #expect(ScenarioEndpoint("ftp://127.0.0.1:9") == nil)
        // Without an endpoint an app registers anyway and runs on the real network.
        let configuration = URLSessionConfiguration.ephemeral
        #expect(!ScenarioURLProtocol.register(on: configuration, endpoint: nil))
        #expect(configuration.protocolClasses?.contains { $0 == ScenarioURLProtocol.self } != true)
    }
}
