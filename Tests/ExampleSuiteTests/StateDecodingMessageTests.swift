import ScenarioTesting
import Testing

/// A state that does not decode into the test's type fails with where and what, in words, not a Swift enum dump.
@Suite struct StateDecodingMessageTests {
    /// FeedReader's items are objects; this view says they are text.
    struct WrongFeed: Decodable {
        var items: [String]
    }

    @Test func aStateOfAnotherShapeIsExplainedInWords() async throws {
        try await withScenario("offline-demo") { session in
            let error = await #expect(throws: ScenarioTestingError.self) { _ = try await session.state(as: WrongFeed.self) }
            let message = error?.description ?? ""
            #expect(message.contains("the state does not decode as WrongFeed: items[0]: Expected to decode String but found"), "\(message)")
            #expect(!message.contains("typeMismatch") && !message.contains("Context("), "\(message)")
        }
    }
}
