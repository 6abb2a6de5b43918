@testable import ScenarioFormat
import Testing
import Yams

/// Plain scalars get the types Yams's default resolver gives them (its regular expressions are the reference), so
/// reading scenarios without those expressions changes nothing a file means.
@Suite struct ImplicitTagsTests {
    /// What Yams's default resolver says.
    func reference(_ text: String) -> Yams.Tag.Name { Resolver.default.resolveTag(of: Node(text)) }

    @Test func theTypesOfTheYAML11Rules() {
        let expected: [Yams.Tag.Name: [String]] = [
            .bool: ["yes", "No", "TRUE", "false", "on", "OFF"],
            .int: ["0", "-0", "+12", "1_000", "0b1010", "-0b1_0", "017", "0o17", "0_", "0x1F", "0xdead_beef", "190:20:30", "-1:5"],
            .float: ["08", "1.5", "-1.", "1e5", "+1.5E-10", "1_0.0_1", ".5", "._5", ".5e+3", "190:20:30.15", ".inf", "-.Inf", "+.INF", ".nan", ".NaN"],
            .merge: ["<<"],
            .null: ["", "~", "null", "Null", "NULL"],
            .timestamp: ["2026-11-01", "2026-11-01T09:00:00Z", "2026-1-1 9:00:00", "2026-11-01t09:00:00.25+01:00",
                         "2026-11-01 09:00:00 -5", "2026-11-01\t09:00:00.123456 Z"],
            .value: ["="],
            .str: ["y", "Yes!", "true ", "0b", "0b2", "0o8", "0x", "0xg", "1:60", "+.5", "-.nan", ".5e3", "1e", "1.5e+",
                   "2026-11-1", "2026-11-01T9:00", "2026-11-01T09:00:00+", "2026-11-01T09:00:00+1:0", "<", "==", "nil",
                   "1 000", "--1", "1-1", "inf", "1.2.3", "0x1.8", "１２"],
        ]
        for (tag, texts) in expected {
            for text in texts {
                #expect(ImplicitTags.tag(of: text) == tag, "\(text.debugDescription)")
                #expect(reference(text) == tag, "the reference disagrees with this test on \(text.debugDescription)")
            }
        }
    }

    /// Text built from the pieces the rules care about, many thousands of times: both resolvers agree on each.
    @Test func agreesWithYamsOnGeneratedText() {
        let pieces = ["0", "1", "5", "7", "9", "_", ".", ":", "-", "+", "e", "E", "x", "b", "o", "a", "F", "T", "t", "Z",
                      " ", "\t", "~", "<<", "=", "inf", "Inf", "nan", "NAN", "yes", "On", "null", "2026", "11", "-01",
                      "59", "60", "0x", "0b", "0o", "12:34", ".5", "1e", "T09:00:00", "+01:00", "é"]
        var random = ParserFuzzTests.Generator(state: 20_261_124)
        var disagreements: [String] = []
        for _ in 0..<50_000 {
            let count = Int(random.next() % 6) + 1
            let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            if ImplicitTags.tag(of: text) != reference(text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).map(\.debugDescription))")
    }

    @Test func onlyUntaggedPlainScalarsAreTyped() throws {
        let yaml = """
            a: 12
            b: "12"
            c: !!str 12
            d: [yes, 'yes', ~]
            e: {f: 1.5}
            """
        let node = ImplicitTags.resolve(try #require(try Yams.compose(yaml: yaml, .basic, .default, .utf8)))
        let mapping = try #require(node.mapping)
        #expect(mapping["a"]?.tag.rawValue == Yams.Tag.Name.int.rawValue)
        #expect(mapping["b"]?.tag.rawValue == Yams.Tag.Name.str.rawValue)
        #expect(mapping["c"]?.tag.rawValue == Yams.Tag.Name.str.rawValue)
        #expect(mapping["d"]?.sequence?.map(\.tag.rawValue) == [Yams.Tag.Name.bool, .str, .null].map(\.rawValue))
        #expect(mapping["e"]?.mapping?["f"]?.tag.rawValue == Yams.Tag.Name.float.rawValue)
    }
}
