import Foundation
import ScenarioTesting
import Testing

/// What Tests/Fixtures/fixtured's Greeter shows.
struct Greeting: Decodable, Sendable {
    var greeting: String
    var theme: String
}

/// A scenarios directory of Greeter's, which scenariod does not host: only the daemon a suite names can run it.
func greeterScenarios() throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("greeter-scenarios-\(UUID().uuidString.prefix(8))")
    let directory = root.appendingPathComponent("greet-grace")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try """
    description: Grace, who likes to be called Gracie, in the dark theme.
    model: Greeter
    profile:
      name: Grace
      nickname: Gracie
      display: { theme: dark }

    """.write(to: directory.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
    return root.path
}

/// A suite names its daemon once, with a trait: its tests (and its nested suites') call `withScenario` with no
/// `daemon:` and reach fixtured, a team's daemon, rather than the run's shared scenariod.
@Suite(.scenarioDaemon { try await TestDaemon.start(binary: try TestDaemon.executable(named: "fixtured"), scenarios: try greeterScenarios()) })
struct SuiteDaemonTests {
    @Test func aTestInTheSuiteUsesTheSuitesDaemon() async throws {
        try await withScenario("greet-grace") { session in
            let state = try await session.perform("greet", as: Greeting.self)
            #expect(state.greeting == "Hello, Gracie!" && state.theme == "dark")
        }
    }

    @Test func everyTestOfTheSuiteSharesOneDaemon() async throws {
        let first = try #require(TestDaemon.current)
        try await withScenario("greet-grace") { session in
            let state = try await session.state(as: Greeting.self)
            #expect(state.greeting == "")
        }
        #expect(TestDaemon.current === first)
    }

    @Suite struct Nested {
        @Test func aNestedSuiteInheritsTheDaemon() async throws {
            try await withScenario("greet-grace") { session in
                let state = try await session.perform("greet", as: Greeting.self)
                #expect(state.greeting == "Hello, Gracie!")
            }
        }
    }
}

/// One environment variable names the daemon for a whole run: `SCENARIOD_DAEMON=todod swift test`.
@Suite struct DaemonEnvironmentTests {
    @Test func scenariodDaemonNamesTheExecutableFoundBesideTheTests() async throws {
        let environment = ["SCENARIOD_DAEMON": "fixtured", "SCENARIOD_SCENARIOS": try greeterScenarios(), "PATH": "/usr/bin:/bin",
                           "SCENARIOD_BINARY": "/nonexistent/scenariod"]
        let daemon = try await TestDaemon.startOrConnect(environment: environment)
        try await withScenario("greet-grace", daemon: daemon) { session in
            let state = try await session.perform("greet", as: Greeting.self)
            #expect(state.greeting == "Hello, Gracie!")
        }
    }

    @Test func aNameFoundNowhereSaysWhereItLooked() async throws {
        let error = await #expect(throws: ScenarioTestingError.self) {
            _ = try await TestDaemon.startOrConnect(environment: ["SCENARIOD_DAEMON": "no-such-daemon", "PATH": "/usr/bin:/bin"])
        }
        let message = error?.description ?? ""
        #expect(message.contains("no daemon executable 'no-such-daemon' beside the tests (") && message.contains("or on PATH (/usr/bin:/bin)"), "\(message)")
    }

    @Test func aNameWithASlashIsAPath() throws {
        #expect(try TestDaemon.executable(named: "./relative/todod", environment: [:]) == "./relative/todod")
        let found = try TestDaemon.executable(named: "fixtured", environment: ["PATH": ""])
        #expect(found.hasSuffix("/fixtured") && FileManager.default.isExecutableFile(atPath: found))
    }
}
