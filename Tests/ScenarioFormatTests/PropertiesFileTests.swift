import Foundation
import ScenarioFormat
import Services
import Testing

/// `properties.yaml`: what `explore` checks. Read with every problem located, as scenario files are.
@Suite struct PropertiesFileTests {
    static let inbox = ModelDescription(name: "Inbox", actions: [
        ActionDescription(name: "refresh", arguments: []),
        ActionDescription(name: "markRead", arguments: [ArgumentDescription(name: "id", type: "string", required: true)]),
    ], keys: [KeyDescription(key: "readItems", holds: "the ids read")])

    @Test func everyPartIsRead() throws {
        let file = try PropertiesFile.parse("""
        fullCoverage: true
        always:
          - /unread >= 0
          - name: at most three
            that: count(/messages) <= 3
        never:
          - $store/readItems == "broken"
        eventually:
          - after: refresh
            within: 30s
            that: /error == null
        walk:
          weights: { action: 3, keyValue: 0 }
          arguments:
            markRead: { id: ["m1", "m2"] }
          keyValue:
            readItems: [[], null]
        """, file: "p.yaml", model: Self.inbox)
        #expect(file.fullCoverage)
        #expect(file.properties.map(\.name) == ["/unread >= 0", "at most three", "$store/readItems == \"broken\"", "/error == null"])
        #expect(file.properties.map(\.place) == ["p.yaml:3:5", "p.yaml:5:11", "p.yaml:7:5", "p.yaml:11:11"])
        #expect(file.properties[3].kind == .eventually(after: "refresh", within: .seconds(30)))
        #expect(file.weights == PropertiesFile.Weights(action: 3, clock: 2, network: 1, keyValue: 0))
        #expect(file.arguments == ["markRead": ["id": ["m1", "m2"]]])
        #expect(file.keyValue == ["readItems": [[], .null]])
    }

    @Test func everyProblemIsLocatedWithASuggestion() throws {
        let error = try #require(throws: PropertiesFileError.self) {
            try PropertiesFile.parse("""
            alwayz:
              - /unread >= 0
            always:
              - /unread >== 0
              - count(/messages <= 3
            eventually:
              - after: refrsh
                within: soon
                that: /error == null
            walk:
              weights: { action: 0, clock: 0, network: 0, keyValue: 0 }
              arguments:
                markRead: { ident: ["m1"] }
            """, file: "p.yaml", model: Self.inbox)
        }
        #expect(error.problems.map(\.description) == [
            "p.yaml:1:1: unknown key 'alwayz' in the properties file. Did you mean 'always'? Allowed keys: fullCoverage, always, never, eventually, walk.",
            "p.yaml:4:13: always[0]: '>==' is not a comparison; they are == != <= >= < >.",
            "p.yaml:5:25: always[1]: count( is not closed by ')'.",
            "p.yaml:7:12: eventually[0].after: 'refrsh' is not an action of Inbox. Did you mean 'refresh'? Its actions: refresh, markRead.",
            "p.yaml:8:13: eventually[0].within must be a duration such as 250ms, 2s, 15m or 1h30m, got 'soon'.",
            "p.yaml:11:12: walk.weights makes every kind of step 0; give at least one a weight above 0.",
            "p.yaml:13:17: walk.arguments.markRead: 'ident' is not an argument of markRead. Its arguments: id.",
        ])
    }

    /// Examples the Model would refuse, and key-value edits of keys it never reads, are problems at their place.
    @Test func examplesAndKeysAreCheckedAgainstTheModel() throws {
        let desk = ModelDescription(name: "Desk", actions: [
            ActionDescription(name: "reserve", arguments: [ArgumentDescription(name: "autoConfirm", type: "boolean", required: true),
                                                           ArgumentDescription(name: "seats", type: "integer", required: false),
                                                           ArgumentDescription(name: "note", type: "string", required: false)]),
        ], keys: [KeyDescription(key: "bookings", holds: "the bookings")])
        let error = try #require(throws: PropertiesFileError.self) {
            try PropertiesFile.parse("""
            walk:
              arguments:
                reserve: { autoConfirm: ["yes", 3, true, null], seats: [2, 4.0, 2.5, null], note: [hi, 7] }
              keyValue:
                booking: [[]]
                bookings: [[]]
            """, file: "p.yaml", model: desk)
        }
        #expect(error.problems.map(\.description) == [
            "p.yaml:3:30: walk.arguments.reserve.autoConfirm[0]: \"yes\" is a string, but autoConfirm takes a boolean.",
            "p.yaml:3:37: walk.arguments.reserve.autoConfirm[1]: 3 is a number, but autoConfirm takes a boolean.",
            "p.yaml:3:46: walk.arguments.reserve.autoConfirm[3]: null, but autoConfirm is required; give a boolean.",
            "p.yaml:3:69: walk.arguments.reserve.seats[2]: 2.5 is a number, but seats takes an integer.",
            "p.yaml:3:92: walk.arguments.reserve.note[1]: 7 is a number, but note takes a string.",
            "p.yaml:5:5: walk.keyValue: 'booking' is not a key Desk declares, so editing it changes nothing the Model reads. "
                + "Did you mean 'bookings'? Its keys: bookings. Declare it in Desk.keyValueKeys if the Model reads it.",
        ])
        // What fits is kept: 4.0 is an integer, null leaves out an optional argument.
        let fine = try PropertiesFile.parse("walk:\n  arguments:\n    reserve: { autoConfirm: [true], seats: [2, 4.0, null] }\n", file: "p.yaml", model: desk)
        #expect(fine.arguments == ["reserve": ["autoConfirm": [true], "seats": [2, 4.0, .null]]])
    }

    @Test func conditionsCompareNumbersStringsAndMissingValues() throws {
        let state: JSONValue = ["unread": 2, "title": "b", "items": [1, 2, 3]]
        let store: JSONValue = ["readItems": ["x"]]
        let journal: JSONValue = [["status": 500]]
        func holds(_ text: String) throws -> Bool {
            try PropertyCondition(parsing: text).holds(state: state, store: store, journal: journal)
        }
        #expect(try holds("/unread >= 0"))
        #expect(try !holds("/unread < 2"))
        #expect(try holds("/unread == 2.0"))
        #expect(try holds("/title > \"a\""))
        #expect(try holds("count(/items) == 3"))
        #expect(try holds("/missing == null"))
        #expect(try !holds("/missing > 0"))
        #expect(try holds("$store/readItems/0 == \"x\""))
        #expect(try holds("$journal/0/status != 200"))
        #expect(try holds("count($journal) == 1"))
        #expect(try !holds("/title"))
        #expect(throws: PropertyConditionError.self) { try PropertyCondition(parsing: "$stor/x == 1") }
    }

    @Test func validateReportsAPropertiesFileProblemBesideTheScenario() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-properties-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("s"), withIntermediateDirectories: true)
        try "description: Fine.\nmodel: FeedReader\n".write(to: root.appendingPathComponent("s/scenario.yaml"), atomically: true, encoding: .utf8)
        try "never:\n  - /error >\n".write(to: root.appendingPathComponent("s/properties.yaml"), atomically: true, encoding: .utf8)
        let result = ScenarioCatalog.check([root.appendingPathComponent("s")], models: modelNames)
        #expect(result.problems.map(\.description) == [
            root.appendingPathComponent("s/properties.yaml").path + ":2:13: never[0]: the condition ends where an operand should be.",
        ])
        // Given the daemon's Models (as `DAEMON --check` gives them), the file's names and examples are checked too.
        try "walk:\n  arguments:\n    refersh: {}\n".write(to: root.appendingPathComponent("s/properties.yaml"), atomically: true, encoding: .utf8)
        #expect(ScenarioCatalog.check([root.appendingPathComponent("s")], models: modelNames).problems.isEmpty)
        let feedReader = ModelDescription(name: "FeedReader", actions: [ActionDescription(name: "refresh", arguments: [])], keys: [])
        let checked = ScenarioCatalog.check([root.appendingPathComponent("s")], models: modelNames, descriptions: [feedReader])
        #expect(checked.problems.map(\.description) == [
            root.appendingPathComponent("s/properties.yaml").path
                + ":3:5: walk.arguments: 'refersh' is not an action of FeedReader. Did you mean 'refresh'? Its actions: refresh.",
        ])
    }
}
