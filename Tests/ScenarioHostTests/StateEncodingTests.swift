import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// A state the host has encoded before is given back as the same bytes rather than encoded again (a Hashable State
/// from any session of its Model, an Equatable one from its own session's last): the bytes must still be the
/// state's own at every step, whichever way the Model's State compares, and however sessions interleave.
@Suite struct StateEncodingTests {
    /// What each counter does: `add` changes its count, `note` sets a text that is in its state too.
    enum CounterAction: Decodable, Sendable {
        case add(amount: Int)
        case note(text: String)
    }

    struct HashableCount: Encodable, Sendable, Hashable { var count = 0; var note = "" }
    struct EquatableCount: Encodable, Sendable, Equatable { var count = 0; var note = "" }
    struct PlainCount: Encodable, Sendable { var count = 0; var note = "" }

    actor HashableCounter: Model {
        static let name = "HashableCounter"
        static let actionNames = ["add", "note"]
        var state = HashableCount()
        init(services: Services) {}
        func perform(_ action: CounterAction) async {
            switch action {
            case .add(let amount): state.count += amount
            case .note(let text): state.note = text
            }
        }
        func run() async {}
    }

    actor EquatableCounter: Model {
        static let name = "EquatableCounter"
        static let actionNames = ["add", "note"]
        var state = EquatableCount()
        init(services: Services) {}
        func perform(_ action: CounterAction) async {
            switch action {
            case .add(let amount): state.count += amount
            case .note(let text): state.note = text
            }
        }
        func run() async {}
    }

    actor PlainCounter: Model {
        static let name = "PlainCounter"
        static let actionNames = ["add", "note"]
        var state = PlainCount()
        init(services: Services) {}
        func perform(_ action: CounterAction) async {
            switch action {
            case .add(let amount): state.count += amount
            case .note(let text): state.note = text
            }
        }
        func run() async {}
    }

    static let models = ["HashableCounter", "EquatableCounter", "PlainCounter"]

    func makeHost() throws -> ScenarioHost {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("state-encoding-\(UUID())")
        for model in Self.models {
            let directory = root.appendingPathComponent(model)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "description: counts\nmodel: \(model)\n".write(to: directory.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        }
        let registry = ModelRegistry([HashableCounter.self, EquatableCounter.self, PlainCounter.self])
        let catalog = ScenarioCatalog.load(from: [root], models: registry.names)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return ScenarioHost(catalog: catalog, models: registry)
    }

    @Test(arguments: models)
    func everyStateIsItsOwnBytesWhenStatesRepeatAcrossSessions(model: String) async throws {
        let host = try makeHost()
        let first = try await host.createSession(of: model), second = try await host.createSession(of: model)
        // Each session goes up, back down to a state it had, and up again; the second interleaves the same states
        // and one the first never had, and a note that an earlier state lacked.
        let steps: [(Session, String, JSONValue, String)] = [
            (first, "add", ["amount": 1], #"{"count":1,"note":""}"#),
            (second, "add", ["amount": 1], #"{"count":1,"note":""}"#),
            (first, "add", ["amount": -1], #"{"count":0,"note":""}"#),
            (second, "add", ["amount": 2], #"{"count":3,"note":""}"#),
            (first, "add", ["amount": 1], #"{"count":1,"note":""}"#),
            (first, "note", ["text": "é"], #"{"count":1,"note":"é"}"#),
            (second, "add", ["amount": -2], #"{"count":1,"note":""}"#),
            (first, "note", ["text": ""], #"{"count":1,"note":""}"#),
            (first, "add", ["amount": 2], #"{"count":3,"note":""}"#),
        ]
        for (number, (session, action, arguments, expected)) in steps.enumerated() {
            let state = try await session.perform(action, arguments: arguments)
            #expect(String(decoding: state.jsonData, as: UTF8.self) == expected, "step \(number + 1): \(action) \(arguments)")
            #expect(try await session.state() == state, "step \(number + 1): the state read afterwards")
        }
    }
}
