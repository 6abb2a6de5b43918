import Foundation
import Services
import Testing

/// `JSONValue.mergePatched(with:)` is RFC 7396's algorithm: checked against every example of the RFC's Appendix A
/// and the worked example of its section 3, written as the RFC writes them.
@Suite struct JSONValueMergePatchTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var original: String
        var patch: String
        var result: String
        var testDescription: String { "\(original) + \(patch) = \(result)" }
    }

    /// RFC 7396 Appendix A, in its order.
    static let appendixA: [Example] = [
        Example(original: #"{"a":"b"}"#, patch: #"{"a":"c"}"#, result: #"{"a":"c"}"#),
        Example(original: #"{"a":"b"}"#, patch: #"{"b":"c"}"#, result: #"{"a":"b","b":"c"}"#),
        Example(original: #"{"a":"b"}"#, patch: #"{"a":null}"#, result: #"{}"#),
        Example(original: #"{"a":"b","b":"c"}"#, patch: #"{"a":null}"#, result: #"{"b":"c"}"#),
        Example(original: #"{"a":["b"]}"#, patch: #"{"a":"c"}"#, result: #"{"a":"c"}"#),
        Example(original: #"{"a":"c"}"#, patch: #"{"a":["b"]}"#, result: #"{"a":["b"]}"#),
        Example(original: #"{"a":{"b":"c"}}"#, patch: #"{"a":{"b":"d","c":null}}"#, result: #"{"a":{"b":"d"}}"#),
        Example(original: #"{"a":[{"b":"c"}]}"#, patch: #"{"a":[1]}"#, result: #"{"a":[1]}"#),
        Example(original: #"["a","b"]"#, patch: #"["c","d"]"#, result: #"["c","d"]"#),
        Example(original: #"{"a":"b"}"#, patch: #"["c"]"#, result: #"["c"]"#),
        Example(original: #"{"a":"foo"}"#, patch: #"null"#, result: #"null"#),
        Example(original: #"{"a":"foo"}"#, patch: #""bar""#, result: #""bar""#),
        Example(original: #"{"e":null}"#, patch: #"{"a":1}"#, result: #"{"e":null,"a":1}"#),
        Example(original: #"[1,2]"#, patch: #"{"a":"b","c":null}"#, result: #"{"a":"b"}"#),
        Example(original: #"{}"#, patch: #"{"a":{"bb":{"ccc":null}}}"#, result: #"{"a":{"bb":{}}}"#),
    ]

    @Test(arguments: appendixA)
    func theRFCsAppendixAExample(_ example: Example) throws {
        let original = try JSONValue(json: Data(example.original.utf8))
        let patch = try JSONValue(json: Data(example.patch.utf8))
        #expect(original.mergePatched(with: patch) == (try JSONValue(json: Data(example.result.utf8))))
    }

    @Test func theAppendixHasFifteenExamples() {
        #expect(Self.appendixA.count == 15)
    }

    /// RFC 7396 section 3: a member changed, one removed, one added, an array replaced whole, the rest kept.
    @Test func theRFCsSectionThreeExample() throws {
        let original: JSONValue = [
            "title": "Goodbye!",
            "author": ["givenName": "John", "familyName": "Doe"],
            "tags": ["example", "sample"],
            "content": "This will be unchanged",
        ]
        let patch: JSONValue = [
            "title": "Hello!",
            "phoneNumber": "+01-123-456-7890",
            "author": ["familyName": nil],
            "tags": ["example"],
        ]
        #expect(original.mergePatched(with: patch) == [
            "title": "Hello!",
            "author": ["givenName": "John"],
            "tags": ["example"],
            "content": "This will be unchanged",
            "phoneNumber": "+01-123-456-7890",
        ])
    }

    /// The empty patch changes nothing, and a patch applied twice gives what it gave once (merge patches are
    /// idempotent, RFC 7396 section 1).
    @Test func anEmptyPatchChangesNothingAndAPatchIsIdempotent() {
        let original: JSONValue = ["a": ["b": 1, "c": [1, 2]], "d": nil]
        #expect(original.mergePatched(with: [:]) == original)
        let patch: JSONValue = ["a": ["b": nil, "e": ["f": true]], "d": 5]
        let once = original.mergePatched(with: patch)
        #expect(once == ["a": ["c": [1, 2], "e": ["f": true]], "d": 5])
        #expect(once.mergePatched(with: patch) == once)
    }
}
