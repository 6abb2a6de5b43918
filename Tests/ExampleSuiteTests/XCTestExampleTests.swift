import ScenarioTesting
import XCTest

/// The same helpers under XCTest: a thrown ScenarioTestingError fails the test like any thrown error.
final class XCTestExampleTests: XCTestCase {
    func testOfflineDemoUnderXCTest() async throws {
        try await withScenario("offline-demo") { session in
            let feed = try await session.state(as: Feed.self)
            XCTAssertEqual(feed.items.count, 4)
            try await session.expectNoUnmatchedRequests()
        }
    }
}
