import Foundation
import ScenarioFormat
import Services
import Testing

/// The properties language: conditions joined with `and`, `or`, `not`; members checked with `all`, `any` and
/// `count`; numbers added and multiplied; the journal's JSON bodies read as JSON. Each read back as written, each
/// error at its column.
@Suite struct PropertyConditionTests {
    static let state: JSONValue = [
        "capacity": 3,
        "bookings": [
            ["id": 1, "status": "confirmed", "seats": 1, "chargeId": "ch-1"],
            ["id": 2, "status": "released", "seats": 1, "chargeId": nil],
            ["id": 3, "status": "charged", "seats": 2, "chargeId": nil],
        ],
        "byName": ["b": ["n": 2], "a": ["n": 1]],
        "big": .int(Int.max),
        "ready": true,
    ]
    static let journal: JSONValue = [
        ["method": "POST", "body": #"{"bookingId":7,"amount":5}"#, "status": 200],
        ["method": "POST", "body": #"{"bookingId":7,"amount":5}"#, "status": 200],
        ["method": "GET", "body": "plain text", "status": 404],
    ]

    func holds(_ text: String) throws -> Bool {
        try PropertyCondition(parsing: text).holds(state: Self.state, store: ["cart": ["items": [1, 2]]],
                                                   journal: PropertyCondition.journalWithJSONBodies(Self.journal))
    }

    @Test func conditionsJoinWithAndOrNotAndBrackets() throws {
        #expect(try holds("/ready and /capacity == 3"))
        #expect(try !holds("/ready and /capacity == 4"))
        #expect(try holds("/capacity == 4 or /ready"))
        #expect(try holds("not /capacity == 4"))
        #expect(try holds("not (/capacity == 4 or /capacity == 5)"))
        // `and` binds tighter than `or`; `not` tighter than both.
        #expect(try holds("/capacity == 3 or /capacity == 4 and /capacity == 5"))
        #expect(try !holds("(/capacity == 3 or /capacity == 4) and /capacity == 5"))
        #expect(try !holds("not /ready or /capacity == 4"))
    }

    @Test func membersAreCheckedWithAllAnyAndCount() throws {
        #expect(try !holds(#"all(/bookings/*, @/status != "charged" or @/chargeId != null)"#))
        #expect(try holds(#"all(/bookings, @/status != "charged" or @/id == 3)"#))
        #expect(try holds(#"any(/bookings/*, @/status == "released")"#))
        #expect(try !holds(#"any(/bookings/*, @/status == "cancelled")"#))
        #expect(try holds(#"count(/bookings/*, @/chargeId == null) == 2"#))
        #expect(try holds("all(/nothing/*, @/x == 1)"), "all of no members holds")
        #expect(try holds("count(/bookings/*/chargeId) == 3 and count(/bookings/*/missing) == 0"))
        // Objects' members in key order; nesting, each `@` the innermost member.
        #expect(try holds("all(/byName/*, @/n >= 1) and sum(/byName/*/n) == 3"))
        #expect(try holds("all(/bookings/*, any(/bookings/*, @/seats >= 1))"))
        #expect(try holds("count($journal/*, @/body/bookingId == 7) == 2"))
        #expect(try holds(#"count($journal/*, @/body == "plain text") == 1"#))
        #expect(try holds("$journal/0/body/amount * 2 == 10"))
        #expect(try holds("$store/cart/items/1 == 2 and count($store/cart/items) == 2"))
    }

    @Test func numbersAddSubtractAndMultiplyExactly() throws {
        #expect(try holds("sum(/bookings/*/seats) <= /capacity + 1"))
        #expect(try !holds("sum(/bookings/*/seats) + 1 <= /capacity"))
        #expect(try holds("/capacity * 2 - 1 == 5"))
        #expect(try holds("/capacity - 1 * 2 == 1"))
        #expect(try holds("(/capacity - 1) * 2 == 4"))
        #expect(try holds("-/capacity == -3"))
        #expect(try holds("/capacity >= -1"))
        // Past Int.max, a double; on anything but numbers, null.
        #expect(try holds("/big * 2 > /big"))
        #expect(try holds("/big - 1 < /big"), "integers compare exactly, however large")
        #expect(try holds("/ready + 1 == null"))
        #expect(try !holds("/ready + 1 > 0"))
    }

    @Test func aConditionReadsBackAsWritten() throws {
        for text in [#"all(/bookings/*, @/status != "charged" or @/chargeId != null)"#, "not (/a == 1 or /b == 2) and /c",
                     "(/a - 1) * 2 == 4", "/a - (1 - 2) == 4", "count($journal/*, @/body/bookingId == 7) <= 1", "sum($store/k/*) >= 0",
                     "-/a == -3", "/ready"] {
            let condition = try PropertyCondition(parsing: text)
            #expect(condition.expression.description == text)
            #expect(try PropertyCondition(parsing: condition.expression.description).expression == condition.expression)
        }
    }

    @Test func aFailureNamesTheMemberThatBrokeIt() throws {
        let condition = try PropertyCondition(parsing: #"all(/bookings/*, @/status != "charged" or @/chargeId != null)"#)
        let explanation = condition.explain(state: Self.state, store: .null, journal: .null)
        #expect(explanation == #"/bookings/*: member 2 breaks @/status != "charged" or @/chargeId != null (@/status is "charged", @/chargeId is null)"#)
        let sum = try PropertyCondition(parsing: "sum(/bookings/*/seats) + 1 <= /capacity")
        #expect(sum.explain(state: Self.state, store: .null, journal: .null) == "sum(/bookings/*/seats) is 4, /capacity is 3")
    }

    @Test func everyErrorSaysWhereInTheCondition() {
        let cases: [(String, String)] = [
            ("@/x == 1", "at column 1 of the condition: '@' stands for the member being checked, so it goes inside all(…), any(…) or count(LIST, …)"),
            ("/a == 1 and", "at column 12 of the condition: the condition ends where an operand should be"),
            ("/a = 1", "at column 4 of the condition: '=' is not a comparison: write '=='"),
            ("all(/a/*)", "at column 5 of the condition: all( takes a list and a condition: all(/items/*, @/done == true)"),
            ("sum(/a/*, @ > 1)", "at column 9 of the condition: sum( takes one list: sum(/items/*/price)"),
            ("(/a == 1", "at column 9 of the condition: ( is not closed by ')'"),
            ("/a == 1)", "at column 8 of the condition: ')' closes no '('"),
            ("/a == 1 /b == 2", "at column 9 of the condition: unexpected '/b == 2' after the condition: join two conditions with 'and' or 'or'"),
            ("/a == [1]", "at column 7 of the condition: a list is not a value here; compare its members one by one"),
            ("/a/~2 == 1", "at column 1 of the condition: '~2' in /a/~2 has a '~' that is neither ~0 (for ~) nor ~1 (for /)"),
            ("$store == 1", "at column 7 of the condition: $store must be followed by /KEY (then a pointer into its value), such as $store/readItems"),
            ("", "at column 1 of the condition: the condition is empty: write one such as /count >= 0"),
        ]
        for (text, expected) in cases {
            #expect(throws: PropertyConditionError.self, "\(text)") { try PropertyCondition(parsing: text) }
            do {
                _ = try PropertyCondition(parsing: text)
            } catch {
                #expect(error.description == expected, "\(text)")
            }
        }
    }

    /// Past the size a Model reaches: a hundred thousand members, each checked, summed and counted.
    @Test func aHundredThousandMembers() throws {
        let items = JSONValue.array((0..<100_000).map { ["n": .int($0 % 7)] })
        let state: JSONValue = ["items": items]
        func holds(_ text: String) throws -> Bool { try PropertyCondition(parsing: text).holds(state: state, store: .null, journal: .null) }
        #expect(try holds("all(/items/*, @/n >= 0 and @/n < 7)"))
        #expect(try holds("sum(/items/*/n) == \((0..<100_000).reduce(0) { $0 + $1 % 7 })"))
        #expect(try holds("count(/items/*, @/n == 6) == \((0..<100_000).filter { $0 % 7 == 6 }.count)"))
        #expect(try !holds("any(/items/*, @/n == 7)"))
    }
}
