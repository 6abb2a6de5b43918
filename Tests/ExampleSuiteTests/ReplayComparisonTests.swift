import Foundation
@testable import ScenarioExplore
import Services
import Testing

/// A replay's state must be its walk's to the byte. The comparison goes by value, without encoding, so it must tell
/// apart every two values that encode differently, including those Swift's `==` takes as equal.
@Suite struct ReplayComparisonTests {
    static let state: JSONValue = ["items": [["title": "Mock views", "isRead": true, "rank": 1.5]], "count": 2, "error": nil]

    @Test func theSameStateParsedTwiceIsTheSameBytes() throws {
        let again = try JSONValue(json: Self.state.jsonData)
        #expect(again.encodesAsSameBytes(as: Self.state))
    }

    /// Each pair differs in its encoding; the last two are `==` all the same.
    static let differing: [(JSONValue, JSONValue)] = [
        (["count": 2], ["count": 3]),
        (["count": 2], ["total": 2]),
        (["count": 2], ["count": 2, "more": nil]),
        ([1, 2], [2, 1]),
        ([1, 2], [1, 2, 3]),
        (nil, false),
        (["items": [["isRead": true]]], ["items": [["isRead": false]]]),
        (.double(0), .double(-0.0)),
        (.string("caf\u{E9}"), .string("cafe\u{301}")),
        (.object(["caf\u{E9}": 1]), .object(["cafe\u{301}": 1])),
    ]

    @Test(arguments: differing)
    func valuesThatEncodeDifferentlyDiffer(_ one: JSONValue, _ other: JSONValue) {
        #expect(one.jsonData != other.jsonData, "the pair must encode differently to test anything")
        #expect(!one.encodesAsSameBytes(as: other) && !other.encodesAsSameBytes(as: one))
    }
}
