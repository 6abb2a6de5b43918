import Foundation
import Services
import Testing

/// JSONValue reads every JSON kind into its own case, whatever order its decoder tries them in.
@Suite struct JSONValueDecodingTests {
    @Test func everyKindDecodesToItsCase() throws {
        let json = #"{"null":null,"true":true,"int":1,"negative":-7,"double":1.5,"exponent":2e3,"string":"true","number string":"1","array":[1,"a",false,null,[],{}],"object":{"nested":{"deeper":[2.5]}}}"#
        let value = try JSONValue(json: Data(json.utf8))
        #expect(value == .object([
            "null": .null, "true": .bool(true), "int": .int(1), "negative": .int(-7), "double": .double(1.5),
            "exponent": .int(2000), "string": .string("true"), "number string": .string("1"),
            "array": .array([.int(1), .string("a"), .bool(false), .null, .array([]), .object([:])]),
            "object": .object(["nested": .object(["deeper": .array([.double(2.5)])])]),
        ]))
        #expect(String(decoding: value.jsonData, as: UTF8.self) == #"{"array":[1,"a",false,null,[],{}],"double":1.5,"exponent":2000,"int":1,"negative":-7,"null":null,"number string":"1","object":{"nested":{"deeper":[2.5]}},"string":"true","true":true}"#)
    }

    @Test func aNumberTooLargeForIntIsADouble() throws {
        #expect(try JSONValue(json: Data("1e300".utf8)) == .double(1e300))
    }
}
