import Fakes
import Foundation
import ScenarioFormat
import Services
import Testing

/// A team service's section is checked against its state's whole shape: every problem of a section in one run, each
/// at its line and column, in words; and the JSON Schema describes the state to the same depth.
@Suite struct ServiceSectionProblemsTests {
    protocol Climate: Sendable {}
    struct FakeClimate: Climate {}
    enum ClimateKey: ServiceKey {
        typealias Value = any Climate
        static let name = "climate"
    }

    /// A state with every part a team's might have: enums, a nested object, a list of objects, a map, an optional.
    struct Thermostat: Codable, Sendable, Equatable {
        enum Mode: String, Codable, Sendable, CaseIterable { case heat, cool, off }
        struct Display: Codable, Sendable, Equatable {
            enum Units: String, Codable, Sendable, CaseIterable { case celsius, fahrenheit }
            var units: Units
            var brightness: Int
        }
        struct Period: Codable, Sendable, Equatable {
            var from: Date
            var target: Double
            var mode: Mode
        }
        var mode: Mode
        var target: Double
        var display: Display
        var schedule: [Period]
        var labels: [String: String]
        var note: String?
    }

    static let climate = ServiceDefinition(
        ClimateKey.self, description: "The thermostat",
        initialState: Thermostat(mode: .heat, target: 20, display: .init(units: .celsius, brightness: 5), schedule: [],
                                 labels: [:], note: nil)) { _ in FakeClimate() }

    func load(_ text: String) throws -> (catalog: ScenarioCatalog, file: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("section-problems-\(UUID())")
        let directory = root.appendingPathComponent("five")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("scenario.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (ScenarioCatalog.load(from: [root], models: modelNames, services: [Self.climate]), file.path)
    }

    @Test func fiveProblemsInOneSectionAreAllReportedAtTheirPlaceInWords() throws {
        let (catalog, file) = try load("""
        description: Five things wrong with one section
        model: FeedReader
        climate:
          mode: haet
          target: warm
          lables:
            kitchen: by the window
          display:
            brightness: high
          schedule:
            - from: tomorrow
              target: 18
              mode: cool

        """)
        let problems = try #require(catalog.problems["five"])
        #expect(problems.map(\.description) == [
            "\(file):4:3: climate.mode must be one of 'heat', 'cool', 'off', got 'haet'. Did you mean 'heat'?",
            "\(file):5:3: climate.target must be a number, got 'warm'.",
            "\(file):6:3: unknown key 'lables' in climate. Did you mean 'labels'? Allowed keys: display, labels, mode, note, schedule, target.",
            "\(file):9:5: climate.display.brightness must be an integer, got 'high'.",
            "\(file):11:7: climate.schedule[0].from must be an instant such as 2026-11-02T09:00:00Z: 'tomorrow' is not an ISO 8601 instant; write a date, a time and a zone, such as 2026-11-01T09:00:00Z.",
        ])
        for problem in problems {
            #expect(!problem.message.contains("DecodingError") && !problem.message.contains("typeMismatch")
                    && !problem.message.contains("Swift."), "a sentence, not a Swift value: \(problem.message)")
        }
    }

    @Test func aListElementMissingAKeyAndAMapValueOfTheWrongTypeAreFoundBesideEachOther() throws {
        let (catalog, file) = try load("""
        description: Problems deeper down
        model: FeedReader
        climate:
          schedule:
            - from: 2026-11-02T07:00:00Z
              target: 21
            - from: 2026-11-02T22:00:00Z
              target: 17
              mode: of
          labels:
            kitchen: [a, list]
          note: null

        """)
        #expect(catalog.problems["five"]?.map(\.description) == [
            "\(file):5:7: climate.schedule[0] is missing the required key 'mode' (one of 'heat', 'cool', 'off').",
            "\(file):9:7: climate.schedule[1].mode must be one of 'heat', 'cool', 'off', got 'of'. Did you mean 'off'?",
            "\(file):11:5: climate.labels.kitchen must be a string, got a list.",
        ])
    }

    @Test func aSectionThatFitsDecodesMergedOverTheInitialState() throws {
        let (catalog, _) = try load("""
        description: Fits
        model: FeedReader
        climate:
          display: { units: fahrenheit }
          schedule: [{ from: 2026-11-02T07:00:00Z, target: 21, mode: cool }]
          note: null

        """)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        guard case .fake(let state)? = catalog.scenarios["five"]?.services["climate"] else {
            Issue.record("no fake state")
            return
        }
        #expect((state as? Thermostat)?.display == .init(units: .fahrenheit, brightness: 5))
        #expect((state as? Thermostat)?.schedule.map(\.mode) == [.cool])
    }

    @Test func theShapeIsReadToFullDepth() {
        let period = ValueShape.object([
            .init(name: "from", shape: .string(format: "date-time"), required: true),
            .init(name: "target", shape: .number, required: true),
            .init(name: "mode", shape: .oneOf(["heat", "cool", "off"]), required: true),
        ], complete: true)
        #expect(Self.climate.shape == .object([
            .init(name: "mode", shape: .oneOf(["heat", "cool", "off"]), required: true),
            .init(name: "target", shape: .number, required: true),
            .init(name: "display", shape: .object([
                .init(name: "units", shape: .oneOf(["celsius", "fahrenheit"]), required: true),
                .init(name: "brightness", shape: .integer, required: true),
            ], complete: true), required: true),
            .init(name: "schedule", shape: .list(of: period), required: true),
            .init(name: "labels", shape: .map(of: .string(format: nil)), required: true),
            .init(name: "note", shape: .string(format: nil), required: false),
        ], complete: true))
    }

    @Test func theSchemaDescribesTheSectionToFullDepthWithEnumsAndDefaults() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(ScenarioSchema.json(models: modelNames, services: [Self.climate]).utf8)) as? [String: Any])
        let climate = try #require((schema["properties"] as? [String: Any])?["climate"] as? [String: Any])
        let properties = try #require(climate["properties"] as? [String: Any])
        func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
        #expect(climate["additionalProperties"] as? Bool == false)
        #expect(climate["required"] == nil, "the section is merged over the initial state, so nothing is required")
        #expect(object(properties["mode"])["enum"] as? [String] == ["heat", "cool", "off"])
        #expect(object(properties["mode"])["default"] as? String == "heat")
        #expect(object(properties["target"])["default"] as? Double == 20)
        let display = object(properties["display"])
        #expect(display["additionalProperties"] as? Bool == false)
        #expect(object(object(display["properties"])["units"])["enum"] as? [String] == ["celsius", "fahrenheit"])
        #expect(object(object(display["properties"])["brightness"])["default"] as? Int == 5)
        let period = object(object(properties["schedule"])["items"])
        #expect(period["required"] as? [String] == ["from", "target", "mode"], "a list's element has no initial value to merge over")
        #expect(object(object(period["properties"])["from"])["format"] as? String == "date-time")
        #expect(object(object(period["properties"])["mode"])["enum"] as? [String] == ["heat", "cool", "off"])
        #expect(object(object(properties["labels"])["additionalProperties"])["type"] as? String == "string")
        #expect(object(properties["note"])["type"] as? [String] == ["string", "null"])
    }

    /// The schema an editor gets rejects what the daemon rejects, deep inside the section, and accepts what it accepts.
    @Test func theSchemaAgreesWithTheCheckInsideTheSection() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("section-schema-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let schema = root.appendingPathComponent("schema.json")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try ScenarioSchema.json(models: modelNames, services: [Self.climate]).write(to: schema, atomically: true, encoding: .utf8)
        let good = "description: g\nmodel: FeedReader\nclimate:\n  display: { units: fahrenheit }\n  schedule: [{ from: 2026-11-02T07:00:00Z, target: 21, mode: cool }]\n"
        let bad = [
            "description: b\nmodel: FeedReader\nclimate:\n  display: { units: kelvin }\n",
            "description: b\nmodel: FeedReader\nclimate:\n  schedule: [{ from: 2026-11-02T07:00:00Z, target: 21 }]\n",
            "description: b\nmodel: FeedReader\nclimate:\n  labels: { kitchen: 3 }\n",
        ]
        func write(_ texts: [String], into directory: URL) throws {
            for (index, text) in texts.enumerated() {
                let scenario = directory.appendingPathComponent("s\(index)")
                try FileManager.default.createDirectory(at: scenario, withIntermediateDirectories: true)
                try text.write(to: scenario.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
            }
        }
        try write([good], into: root.appendingPathComponent("good"))
        try write(bad, into: root.appendingPathComponent("bad"))
        #expect(try checkSchema(schema, root.appendingPathComponent("good")).status == 0)
        let rejected = try checkSchema(schema, root.appendingPathComponent("bad"), "--expect-invalid")
        #expect(rejected.status == 0 && rejected.output.contains("\(bad.count) passed, 0 failed"), "\(rejected.output)")
        // And the daemon's own check refuses the same three.
        let catalog = ScenarioCatalog.load(from: [root.appendingPathComponent("bad")], models: modelNames, services: [Self.climate])
        #expect(catalog.problems.count == bad.count && catalog.scenarios.isEmpty)
    }

    private func checkSchema(_ schema: URL, _ directory: URL, _ extra: String...) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [repositoryRoot.appendingPathComponent("scripts/check-schema.py").path, schema.path, directory.path] + extra
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
