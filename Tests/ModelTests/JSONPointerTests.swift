import Foundation
import Services
import Testing

/// `JSONValue.value(at:)` is RFC 6901's evaluation: checked against every pointer of the RFC's section 5, over its
/// example document, and against the pointers that name nothing.
@Suite struct JSONPointerTests {
    /// RFC 6901 section 5's document.
    static let document = try! JSONValue(json: Data(#"""
        {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}
        """#.utf8))

    /// Section 5's pointers and what each evaluates to, in its order.
    static let section5: [(String, JSONValue)] = [
        ("", document), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3),
        ("/g|h", 4), (#"/i\j"#, 5), (#"/k"l"#, 6), ("/ ", 7), ("/m~0n", 8),
    ]

    @Test(arguments: section5)
    func theRFCsSection5Pointer(_ pointer: String, _ expected: JSONValue) {
        #expect(Self.document.value(at: pointer) == expected)
    }

    /// `foo`, with no leading slash, is no pointer at all: nil, not JSON's null.
    @Test(arguments: ["/nothing", "/foo/2", "/foo/-1", "/foo/x", "/foo/0/more", "/foo/", "foo", "/a/b", "/m~1n"])
    func aPointerToNothingIsNil(_ pointer: String) {
        #expect(Self.document.value(at: pointer) == nil)
    }

    @Test func anEmptyTokenAfterASlashIsTheEmptyKey() throws {
        let nested = try JSONValue(json: Data(#"{"a": {"": {"": true}}}"#.utf8))
        #expect(nested.value(at: "/a/") == ["": true])
        #expect(nested.value(at: "/a//") == .bool(true))
    }
}
