import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// A state the host has encoded before is given back as the same bytes rather than encoded again (a Hashable State
/// from any session of its Model, an Equatable one from its own session's last): the bytes must still be the
/// state's own at every step, whichever way the Model's State compares, and however sessions interleave.
@Suite struct StateEncodingTests {
    /// What a counter does: `add` changes its count, `note` sets a text that is in its state too.
    enum CounterAction: Decodable, Sendable {
        case add(amount: Int)
        case note(text: String)
    }

    /// A counter's state, in one of three kinds of conformance, each the state of a Model of its own name.
    protocol CountState: Encodable, Sendable {
        static var model: String { get }
        init()
        var count: Int { get set }
        var note: String { get set }
    }
    struct HashableCount: CountState, Hashable { static let model = "HashableCounter"; var count = 0, note = "" }
    struct EquatableCount: CountState, Equatable { static let model = "EquatableCounter"; var count = 0, note = "" }
    struct PlainCount: CountState { static let model = "PlainCounter"; var count = 0, note = "" }

    actor Counter<State: CountState>: Model {
        static var name: String { State.model }
        static var actionNames: [String] { ["add", "note"] }
        var state = State()
        init(services: ModelServices) {}
        func perform(_ action: CounterAction) async {
            switch action {
            case .add(let amount): state.count += amount
            case .note(let text): state.note = text
            }
        }
        func run() async {}
    }

    static let models = [HashableCount.model, EquatableCount.model, PlainCount.model]

    func makeHost() throws -> SessionHost {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("state-encoding-\(UUID())")
        for model in Self.models {
            let directory = root.appendingPathComponent(model)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "description: counts\nmodel: \(model)\n".write(to: directory.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        }
        let registry = ModelRegistry([Counter<HashableCount>.self, Counter<EquatableCount>.self, Counter<PlainCount>.self])
        let catalog = ScenarioCatalog.load(from: [root], models: registry.names)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return SessionHost(catalog: catalog, models: registry)
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
