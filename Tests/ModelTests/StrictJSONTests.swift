import Foundation
import Services
import Testing

/// `JSONValue(strictJSON:)`: RFC 8259 exactly, each refusal with its line and column.
@Suite struct StrictJSONTests {
    @Test(arguments: [
        (#"{"by": "1s"}"#, JSONValue.object(["by": "1s"])),
        (" [1, -2.5, 0, 1e3, 4.0, true, false, null] ", .array([.int(1), .double(-2.5), .int(0), .int(1000), .int(4), .bool(true), .bool(false), .null])),
        (#""\u00e9\ud83d\ude00\n\"\/""#, .string("é😀\n\"/")),
        (#"{"a": {"b": []}, "c": {}}"#, .object(["a": .object(["b": .array([])]), "c": .object([:])])),
        ("9223372036854775807", .int(Int.max)),
        ("-9223372036854775808", .int(Int.min)),
        // As many digits as a float keeps, and what a float's shortest form writes, come back as written.
        ("[0.30000000000000004, 1.7976931348623157e308, 5e-324, 1.5e3, -0.0, 12345.678901234567]",
         .array([.double(0.30000000000000004), .double(1.7976931348623157e308), .double(.leastNonzeroMagnitude), .int(1500), .int(0), .double(12345.678901234567)])),
    ])
    func acceptsWhatRFC8259Writes(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(strictJSON: Data(text.utf8)) == expected)
    }

    @Test(arguments: [
        ("{\"by\": \"1s\",}", "expected a member after the comma; JSON has no trailing commas", 1, 13),
        ("[1,\n 2,\n]", "expected a value after the comma; JSON has no trailing commas", 3, 1),
        ("{\"a\": 1 /* note */}", "expected ',' or '}' after the member's value, found a comment (JSON has none)", 1, 9),
        ("{\n  \"a\": 1\n// note\n}", "expected ',' or '}' after the member's value, found a comment (JSON has none)", 3, 1),
        ("{\"by\": \"1", "the string that starts here has no closing quote", 1, 8),
        ("{\"by\": ", "expected a value, found the end of the body", 1, 8),
        ("{'a': 1}", "expected a member name in double quotes, found '''", 1, 2),
        ("{\"a\": NaN}", "expected a value (an object, array, string, number, true, false or null), found 'N'", 1, 7),
        ("{\"a\": 01}", "a number may not start with a leading zero", 1, 7),
        ("{\"a\": 1, \"a\": 2}", "the member 'a' appears twice in this object", 1, 10),
        ("{} {}", "expected the end of the body after a complete JSON value, found '{'", 1, 4),
        ("\"tab\there\"", "a control character (U+0009) must be escaped inside a string", 1, 5),
        ("\"\\x\"", "'\\x' is not an escape JSON knows (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", 1, 2),
        ("[1e999]", "the number 1e999 is too large", 1, 2),
        // Found stored as other numbers: never another number than the one sent.
        ("[-9223372036854775809]", "the number -9223372036854775809 cannot be kept exactly: it would read -9.223372036854776e+18 (past the 64-bit integers); send it as a string to keep every digit", 1, 2),
        ("[12345678901234567890]", "the number 12345678901234567890 cannot be kept exactly: it would read 1.2345678901234567e+19 (past the 64-bit integers); send it as a string to keep every digit", 1, 2),
        ("[9223372036854775808]", "the number 9223372036854775808 cannot be kept exactly: it would read 9.223372036854776e+18 (past the 64-bit integers); send it as a string to keep every digit", 1, 2),
        ("{\"n\": 1e-400}", "the number 1e-400 cannot be kept exactly: it would read 0.0 (too small for a 64-bit float); send it as a string to keep every digit", 1, 7),
        ("[3.9999999999999999]", "the number 3.9999999999999999 cannot be kept exactly: it would read 4.0 (more precise than a 64-bit float); send it as a string to keep every digit", 1, 2),
        ("[4.0000000000000000001]", "the number 4.0000000000000000001 cannot be kept exactly: it would read 4.0 (more precise than a 64-bit float); send it as a string to keep every digit", 1, 2),
        ("[0.1000000000000000055511151231257827]", "the number 0.1000000000000000055511151231257827 cannot be kept exactly: it would read 0.1 (more precise than a 64-bit float); send it as a string to keep every digit", 1, 2),
        ("[tru]", "expected a value, found 't'", 1, 2),
        ("{\"é\": x}", "expected a value (an object, array, string, number, true, false or null), found 'x'", 1, 7),
    ])
    func refusesAnythingElseSayingWhere(text: String, problem: String, line: Int, column: Int) {
        var expected = JSONSyntaxError(problem: problem, line: line, column: column)
        expected.isInexactNumber = problem.contains("cannot be kept exactly")
        #expect(throws: expected) {
            try JSONValue(strictJSON: Data(text.utf8))
        }
    }

    /// A number no float or integer holds is refused by the lenient reading too: Foundation's decoder would read
    /// it as another number.
    @Test(arguments: ["[123456789012345678901234567890]", "{\"n\": 3.9999999999999999,}", "[1e-400]"])
    func jsonRefusesANumberItCannotKeep(text: String) {
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) != nil)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(json: Data(text.utf8)) }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(throws: JSONSyntaxError(problem: "the string that starts here is not valid UTF-8", line: 1, column: 1)) {
            try JSONValue(strictJSON: Data([0x22, 0xFF, 0x22]))
        }
    }

    @Test func nestsAsDeepAsFoundationsParserAndNoDeeper() {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect((try? JSONValue(strictJSON: Data(deepest.utf8))) != nil)
        let deeper = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONSyntaxError(problem: "arrays and objects nest more than 512 deep here", line: 1, column: 513)) {
            try JSONValue(strictJSON: Data(deeper.utf8))
        }
    }

    /// `JSONValue(json:)` reads with the strict parser first and Foundation's decoder after it: for every input,
    /// strict or not, it must give what Foundation's decoder alone gives, and throw where that throws.
    @Test(arguments: [
        #"{"by": "1s", "n": [1, -2.5, 0, -0, 1e3, 4.0, 1.5e-3, 9223372036854775807]}"#,
        #"{"s": "\u00e9\ud83d\ude00\n\"\/", "e": {}, "a": [], "t": true, "f": false, "z": null}"#,
        "[1.0, 2.50, 1E2, -1e-2, 0.30000000000000004]",
        "{\"by\": \"1s\",}",
        "[1, 2,]",
        "{\"a\": 1, \"a\": 2}",
        "  \"text\"  ",
        "{\"a\": NaN}",
        "[1e999]",
        "{\"by\": ",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func jsonReadsAsFoundationsDecoderAlone(text: String) {
        let data = Data(text.utf8)
        let foundation = Result { try JSONDecoder().decode(JSONValue.self, from: data) }
        let read = Result { try JSONValue(json: data) }
        switch (foundation, read) {
        case let (.success(expected), .success(value)): #expect(value == expected)
        case (.failure, .failure): break
        default: Issue.record("Foundation's decoder gave \(foundation), JSONValue(json:) gave \(read)")
        }
    }
}
