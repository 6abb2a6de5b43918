import Foundation
@testable import ScenarioFormat
import Services
import Testing

/// A fixture line's data is written in canonical form in one pass over its bytes (`JSONLineScanner`): for any JSON,
/// written any way, what it writes is what `JSONValue(strictJSON:)` then `jsonData` (JSONEncoder) write, or nil.
@Suite struct JSONLineScannerTests {
    typealias Generator = ParserFuzzTests.Generator

    /// Keys whose byte order differs from other orders (case, digits, `_` against letters, a prefix, characters outside
    /// ASCII and outside the Basic Multilingual Plane), one of them twice in two spellings Swift holds equal.
    static let keys = ["a", "A", "b", "B", "_", "a10", "a2", "ab", "aB", "a_b", "", "z", "é", "e\u{301}", "Ａ", "😀", "ä", "key with space"]
    static let characters: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}",
                                               "\u{C}", "\u{D}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "\u{FEFF}", "😀", "\u{10FFFF}"]

    static func value(_ depth: Int, using generator: inout Generator) -> JSONValue {
        switch depth == 0 ? 7 : Int.random(in: 0..<(depth < 4 ? 8 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(Int.random(in: -999_999_999_999_999_999...999_999_999_999_999_999, using: &generator))
        case 3: return .int(Int.random(in: -10...10, using: &generator))
        case 4, 5:
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...6, using: &generator) { text.append(characters.randomElement(using: &generator)!) }
            return .string(String(text))
        case 6: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[keys.randomElement(using: &generator)!] = value(depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    /// `value` written as JSON any valid way: whitespace anywhere between tokens, members in any order, any character
    /// escaped, keys written as they are.
    static func written(_ value: JSONValue, using generator: inout Generator) -> String {
        func space() -> String { ["", "", " ", "  ", "\t", "\n", "\r\n"].randomElement(using: &generator)! }
        func string(_ text: String, escaping: Bool) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
                if !mustEscape, !(escaping && Int.random(in: 0..<4, using: &generator) == 0) {
                    out.unicodeScalars.append(scalar)
                    continue
                }
                let short: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\u{8}": "\\b", "\u{C}": "\\f",
                                                       "\n": "\\n", "\r": "\\r", "\t": "\\t"]
                if let escape = short[scalar], Bool.random(using: &generator) {
                    out += escape
                } else {
                    for unit in String(Character(scalar)).utf16 {
                        out += "\\u" + String(format: Bool.random(using: &generator) ? "%04x" : "%04X", unit)
                    }
                }
            }
            return out + "\""
        }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return string(text, escaping: true)
        case .array(let elements):
            return "[" + space() + elements.map { written($0, using: &generator) + space() }.joined(separator: "," + space()) + "]"
        case .object(let members):
            let members = members.shuffled(using: &generator).map { key, member in
                string(key, escaping: false) + space() + ":" + space() + written(member, using: &generator) + space()
            }
            return "{" + space() + members.joined(separator: "," + space()) + "}"
        }
    }

    static func scanned(_ text: String) -> [UInt8]? {
        Array(text.utf8).withUnsafeBufferPointer { bytes -> [UInt8]? in
            var scanner = JSONLineScanner(bytes: bytes)
            var out: [UInt8] = []
            return scanner.canonicalValue(into: &out) && scanner.atEnd ? out : nil
        }
    }

    /// 100,000 objects, each written a random way: whatever the scanner takes it writes as JSONEncoder writes the value
    /// the strict parser reads, and it takes nearly all of them (those with keys Swift holds equal it leaves).
    @Test func whatTheScannerWritesIsWhatJSONEncoderWritesOfWhatTheStrictParserReads() throws {
        var generator = Generator(state: 48)
        var taken = 0
        let count = 100_000
        for _ in 0..<count {
            let value = Self.value(0, using: &generator)
            let text = Self.written(value, using: &generator)
            guard let scanned = Self.scanned(text) else { continue }
            taken += 1
            let read = try JSONValue(strictJSON: Data(text.utf8))
            #expect(read == value)
            #expect(String(decoding: scanned, as: UTF8.self) == String(decoding: read.jsonData, as: UTF8.self), "\(text)")
        }
        #expect(taken * 10 > count * 9, "taken \(taken) of \(count)")
    }

    /// What it leaves to the slow reading, which either refuses it with its place or reads it as YAML would.
    @Test(arguments: [
        "01", "-0", "1.0", "1e3", "2E-2", "1234567890123456789", "[1,]", "{\"a\":1,}", "{\"a\":1,\"a\":2}",
        "{\"é\":1,\"e\u{301}\":2}", "{\"a\\u0062\":1}", "\"\\ud800\"", "\"\\udc00\"", "\"\\x\"", "\"a\u{1}\"", "\"open",
        "tru", "nul", "{\"a\" 1}", "[1 2]", "{1:2}", String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
    ])
    func whatTheScannerLeavesToTheSlowReading(_ text: String) {
        #expect(Self.scanned(text) == nil)
    }

    @Test func aDeeplyNestedValueIsTaken() throws {
        let text = String(repeating: "[{\"a\":", count: 100) + "1" + String(repeating: "}]", count: 100)
        #expect(try Self.scanned(text) == Array(JSONValue(strictJSON: Data(text.utf8)).jsonData))
    }
}
