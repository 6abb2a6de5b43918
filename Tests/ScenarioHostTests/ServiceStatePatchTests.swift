import ControlAPI
import Fakes
import Foundation
import ScenarioFormat
import ScenarioHost
import Services
import Testing

/// A service's state has one shape: what the session reads is what a replacement takes, and a JSON merge patch
/// (RFC 7396) is a replacement by the patched state, with its checks, its errors, its events and its place in the
/// history, which a rewind replays exactly.
@Suite struct ServiceStatePatchTests {
    /// A profile with every part a merge patch reaches: a nested object, optional members, a map and a list.
    struct Profile: Codable, Sendable, Equatable {
        struct Display: Codable, Sendable, Equatable {
            var theme: String
            var fontSize: Int?
        }
        var name: String
        var nickname: String?
        var display: Display
        var flags: [String: Bool]
        var tags: [String]
    }

    protocol ProfileStore: Sendable {
        func profile() async -> Profile
        func rename(to name: String) async
    }
    enum ProfileKey: ServiceKey {
        typealias Value = any ProfileStore
        static let name = "profile"
    }
    struct FakeProfileStore: ProfileStore {
        let context: ServiceFakeContext<Profile>
        func profile() async -> Profile { context.state }
        func rename(to name: String) async { context.update { $0.name = name } }
    }

    /// Greets by the profile's nickname, or its name; `rename` changes the service's state from the Model's side.
    actor Greeter: Model {
        static let name = "Greeter"
        static let actionNames = ["greet", "rename"]
        enum Action: Decodable, Sendable {
            case greet
            case rename(name: String)
        }
        struct State: Encodable, Sendable { var greeting = "" }
        let store: any ProfileStore
        var state = State()
        init(services: ModelServices) { store = services[ProfileKey.self] }
        func perform(_ action: Action) async {
            switch action {
            case .greet:
                let profile = await store.profile()
                state.greeting = "Hello, \(profile.nickname ?? profile.name)!"
            case .rename(let name): await store.rename(to: name)
            }
        }
        func run() async {}
    }

    static let profile = ServiceDefinition(
        ProfileKey.self, description: "The user's profile",
        initialState: Profile(name: "Ada", nickname: nil, display: .init(theme: "light", fontSize: nil), flags: [:], tags: [])
    ) { FakeProfileStore(context: $0) }

    static let scenario = """
        description: A profile with a nickname, a dark theme and two flags.
        model: Greeter
        profile:
          name: Ada
          nickname: Countess
          display:
            theme: dark
          flags:
            beta: true
            newsletter: false
          tags: [math]
        """

    /// The state the scenario starts from, as the session reads it.
    static let start: JSONValue = [
        "name": "Ada", "nickname": "Countess", "display": ["theme": "dark"],
        "flags": ["beta": true, "newsletter": false], "tags": ["math"],
    ]

    func makeSession() async throws -> Session {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("service-patch-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("profile"), withIntermediateDirectories: true)
        try Self.scenario.write(to: root.appendingPathComponent("profile/scenario.yaml"), atomically: true, encoding: .utf8)
        let models = ModelRegistry([Greeter.self], services: [Self.profile])
        let catalog = ScenarioCatalog.load(from: [root], models: models.names, services: models.services)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return try await SessionHost(catalog: catalog, models: models).createSession(of: "profile")
    }

    /// The events a change caused, told apart by kind: `service` (with the state), `state` and `history`.
    func events(of session: Session, during change: () async throws -> Void) async throws -> [String] {
        let subscription = try await session.eventStream()
        try await change()
        // A marker the session publishes last, after everything the change caused.
        try await session.advanceClock(by: .seconds(1))
        var kinds: [String] = []
        for await numbered in subscription.events {
            switch numbered.event {
            case .serviceChanged(let service, let state): kinds.append("service:\(service):\(String(decoding: state.jsonData, as: UTF8.self))")
            case .stateChanged: kinds.append("state")
            case .historyChanged: kinds.append("history")
            case .clockMoved: return kinds
            case .requestJournaled: kinds.append("request")
            case .streamChanged: kinds.append("stream")
            case .modelEscaped(let escape): kinds.append("escaped:\(escape.kind)")
            }
        }
        return kinds
    }

    @Test func whatIsReadIsWhatAReplacementTakesSoSendingItBackChangesNothing() async throws {
        let session = try await makeSession()
        let state = try await session.serviceState("profile")
        #expect(state == Self.start)
        var stored: JSONValue = nil
        let kinds = try await events(of: session) { stored = try await session.replaceServiceState("profile", with: state) }
        #expect(stored == state)
        #expect(try await session.serviceState("profile") == state)
        #expect(kinds == ["history"], "the same state is no change of the service's: only the step is told")
    }

    @Test func aPatchMergesObjectsRemovesNullMembersAndKeepsTheRest() async throws {
        let session = try await makeSession()
        let patch: JSONValue = ["nickname": nil, "display": ["fontSize": 14], "flags": ["beta": nil, "dark": true], "tags": ["a", "b"]]
        let expected: JSONValue = [
            "name": "Ada", "display": ["theme": "dark", "fontSize": 14],
            "flags": ["newsletter": false, "dark": true], "tags": ["a", "b"],
        ]
        var stored: JSONValue = nil
        let kinds = try await events(of: session) { stored = try await session.patchServiceState("profile", with: patch) }
        #expect(stored == expected)
        #expect(try await session.serviceState("profile") == expected)
        #expect(try await session.perform("greet").decoded(as: [String: String].self) == ["greeting": "Hello, Ada!"],
                "the Model sees the patched state: no nickname any more")

        // The same events as a replacement by the state the patch made.
        let other = try await makeSession()
        let replaced = try await events(of: other) { try await other.replaceServiceState("profile", with: expected) }
        #expect(kinds == replaced)
        #expect(kinds == ["service:profile:\(String(decoding: expected.jsonData, as: UTF8.self))", "history"])
    }

    @Test func aPatchThatMakesAnInvalidStateIsRefusedAsAReplacementByThatStateIsAndChangesNothing() async throws {
        let session = try await makeSession()
        let steps = await session.history().steps.count
        for patch: JSONValue in [["display": ["theme": 5], "colour": "red"], ["name": nil], ["tags": "math"], [1, 2]] {
            let patched = await refusal { try await session.patchServiceState("profile", with: patch) }
            let replaced = await refusal { try await session.replaceServiceState("profile", with: Self.start.mergePatched(with: patch)) }
            #expect(patched != nil && patched == replaced, "\(patch)")
            #expect(patched?.code == .invalidServiceState)
        }
        // Each problem at its JSON pointer in the patched state, then what is wrong there.
        let typeAndKey = await refusal { try await session.patchServiceState("profile", with: ["display": ["theme": 5], "colour": "red"]) }?.message ?? ""
        #expect(typeAndKey.contains("/display/theme: profile.display.theme must be a string, got the number 5."), "\(typeAndKey)")
        #expect(typeAndKey.contains("/colour: unknown key 'colour' in profile."), "\(typeAndKey)")
        let missing = await refusal { try await session.patchServiceState("profile", with: ["name": nil]) }?.message ?? ""
        #expect(missing.hasPrefix("/: profile is missing the required key 'name'"), "\(missing)")
        #expect(try await session.serviceState("profile") == Self.start)
        #expect(await session.history().steps.count == steps, "a refused change is no step")
        #expect(await refusal { try await session.patchServiceState("profil", with: [:]) }?.code == .unknownService)
    }

    @Test func aPatchIsAStepOfTheHistoryThatARewindReplaysExactly() async throws {
        let session = try await makeSession()
        var after: [(service: JSONValue, model: Data)] = [(try await session.serviceState("profile"), try await session.state().jsonData)]
        func step(_ change: () async throws -> Void) async throws {
            try await change()
            after.append((try await session.serviceState("profile"), try await session.state().jsonData))
        }
        try await step { try await session.patchServiceState("profile", with: ["nickname": nil, "flags": ["beta": nil]]) }
        try await step { try await session.perform("rename", arguments: ["name": "Grace"]) }
        try await step { try await session.patchServiceState("profile", with: ["nickname": "G", "display": ["fontSize": 12]]) }
        try await step { try await session.perform("greet") }

        let history = await session.history().steps
        #expect(history.count == 5)
        guard case .patchServiceState(let service, let patch, let state) = history[3].change else {
            Issue.record("step 3 is \(history[3].change)")
            return
        }
        #expect(service == "profile" && patch == ["nickname": "G", "display": ["fontSize": 12]])
        #expect(state == after[3].service, "the step keeps the whole state the patch made")
        #expect(after[3].service == ["name": "Grace", "nickname": "G", "display": ["theme": "dark", "fontSize": 12],
                                     "flags": ["newsletter": false], "tags": ["math"]])

        for number in [4, 3, 1, 0] {
            _ = try await session.rewind(to: number)
            #expect(try await session.serviceState("profile") == after[number].service, "rewound to step \(number)")
            #expect(try await session.state().jsonData == after[number].model, "rewound to step \(number)")
        }
    }

    private func refusal(_ body: () async throws -> JSONValue) async -> HostError? {
        do { _ = try await body() } catch let error as HostError { return error } catch { Issue.record("\(error)") }
        return nil
    }
}
