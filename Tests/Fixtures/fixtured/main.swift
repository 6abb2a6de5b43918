import Fakes
import ScenarioDaemon
import Services
import TaskModels

// A team's daemon for the end-to-end and system tests: one Model and one service of the team's own, whose state has
// every part a JSON merge patch reaches (a nested object, optional members, a map, a list). scenariod's Models use no
// service of a team's, so without this the tests could read and replace a fake's state only through a separate
// package (Examples/TodoDaemon).

/// The user's profile as the service keeps it: the fake's whole state.
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

/// The team's service: the profile, which the Model reads and renames.
protocol ProfileStore: Sendable {
    func profile() async -> Profile
    func rename(to name: String) async
}

enum ProfileKey: ServiceKey {
    typealias Value = any ProfileStore
    static let name = "profile"
}

/// The profile a scenario configures, each change journaled.
struct FakeProfileStore: ProfileStore {
    let context: ServiceFakeContext<Profile>

    func profile() async -> Profile { context.state }

    func rename(to name: String) async {
        context.update { $0.name = name }
        await context.journal("rename", detail: name)
    }
}

/// Greets the user as the profile says: by nickname when there is one.
actor Greeter: Model {
    static let name = "Greeter"
    static let actionNames = ["greet", "rename"]

    enum Action: Decodable, Sendable {
        /// Read the profile and greet.
        case greet
        /// Change the profile's name.
        case rename(name: String)
    }

    struct State: Encodable, Sendable {
        var greeting = ""
        var theme = ""
    }

    private let store: any ProfileStore
    var state = State()

    init(services: ModelServices) {
        store = services[ProfileKey.self]
    }

    func perform(_ action: Action) async {
        switch action {
        case .greet:
            let profile = await store.profile()
            state.greeting = "Hello, \(profile.nickname ?? profile.name)!"
            state.theme = profile.display.theme
        case .rename(let name):
            await store.rename(to: name)
        }
    }

    func run() async {}
}

/// The bell TaskModels' Alarm rings: each ring journaled and kept in its state.
struct FakeBell: Bell {
    let context: ServiceFakeContext<[String]>

    func ring(_ note: String) async {
        context.update { $0.append(note) }
        await context.journal("ring", detail: note)
    }
}

await Daemon.main(name: "fixtured", version: "0.0.0", models: [Greeter.self, Fetcher.self] + taskModels, services: [
    ServiceDefinition(BellKey.self, description: "The bell an alarm rings", initialState: [String]()) { context in
        FakeBell(context: context)
    },
    ServiceDefinition(ProfileKey.self, description: "The user's profile",
                      initialState: Profile(name: "Ada", nickname: nil, display: .init(theme: "light", fontSize: nil), flags: [:], tags: [])) { context in
        FakeProfileStore(context: context)
    },
])
