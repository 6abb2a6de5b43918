// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "scenariod",
    // Linux only, so no other platform is named: the engine's runtime hooks use the GNU linker's --wrap, the server
    // reads SO_PEERCRED and glibc's mallinfo2, the daemon links libsystemd, and nothing is built or tested elsewhere.
    // A build on another platform stops at an #error that says so (CTaskOwnership.h).
    products: [
        .executable(name: "scenariod", targets: ["scenariod"]),
        .executable(name: "scenarioctl", targets: ["scenarioctl"]),
        // What a team builds on, each with a DocC catalog: the Model contract (Services), the fakes of its own
        // services (Fakes), its daemon (ScenarioDaemon), its tests (ScenarioTesting, ScenarioClient, ControlAPI,
        // ScenarioExplore), and the scenarios those read and write (ScenarioFormat). The engine (with the session
        // runtime under it), the server, the live services and the systemd glue are targets only: a team reaches them through
        // `Daemon.main` (or `DaemonService` in its own ServiceGroup), so their public declarations are not API to
        // keep stable.
        .library(name: "ScenarioDaemon", targets: ["ScenarioDaemon"]),
        .library(name: "Services", targets: ["Services"]),
        .library(name: "Fakes", targets: ["Fakes"]),
        .library(name: "ScenarioFormat", targets: ["ScenarioFormat"]),
        .library(name: "ControlAPI", targets: ["ControlAPI"]),
        .library(name: "ScenarioClient", targets: ["ScenarioClient"]),
        .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
        .library(name: "ScenarioExplore", targets: ["ScenarioExplore"]),
        // For an app the daemon does not host: its URLSession answered by a session's endpoint. Foundation only.
        .library(name: "ScenarioURLLoading", targets: ["ScenarioURLLoading"]),
        // For a Model that talks gRPC: a grpc-swift 2 client transport over its network service.
        .library(name: "ScenarioGRPC", targets: ["ScenarioGRPC"]),
        // `swift package package-daemon --product NAME`: a team's daemon as a .deb and an OCI image.
        .plugin(name: "PackageDaemon", targets: ["PackageDaemon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        // gRPC: grpc-swift 2's client API for Models, its HTTP/2 transport for live calls, and swift-protobuf's
        // descriptor types, which drive the scenarios' message codec.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // GET /metrics: the daemon's figures in Prometheus's text format.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The live network's WebSocket client.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // Session endpoints' WebSocket upgrades, and the tests' loopback WebSocket server.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Response templates in scenarios (`template: true`).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // `swift package generate-documentation`: the DocC catalogs of the library products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),

        // `scenarioctl mcp`: the Model Context Protocol over stdio, for coding agents.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // `scenarioctl import openapi`: OpenAPI 3.0 and 3.1 documents, their references resolved.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
    ],
    targets: [
        // The protocols every Model sees, and the value types they pass.
        .target(name: "Services", dependencies: ["CThreadSanitizer", .product(name: "HTTPTypes", package: "swift-http-types")]),
        // ThreadSanitizer's annotations for the locks it cannot see (Synchronization.Mutex); no-ops in other builds.
        .target(name: "CThreadSanitizer"),
        // Models: application logic; they import Services and nothing else of ours.
        .target(name: "FeedReader", dependencies: ["Services", .product(name: "HTTPTypes", package: "swift-http-types")]),
        .target(name: "Ratings", dependencies: ["Services", .product(name: "HTTPTypes", package: "swift-http-types")]),
        .target(name: "Assistant", dependencies: ["Services", .product(name: "HTTPTypes", package: "swift-http-types")]),
        // Its gRPC code is generated from Protos/transit.proto by scripts/generate-grpc and committed.
        .target(name: "TripPlanner", dependencies: [
            "Services", "ScenarioGRPC", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "GRPCCore", package: "grpc-swift-2"), .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ], exclude: ["Protos"]),
        // A grpc-swift 2 client transport over a Model's network service: the scenario's routes answer its calls.
        .target(name: "ScenarioGRPC", dependencies: [
            "Services", .product(name: "GRPCCore", package: "grpc-swift-2"), .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        // Hooks into the Swift runtime and libdispatch so a session owns the tasks its Model starts and sees what
        // escapes it (DESIGN §4); C, because it takes the place of runtime and libdispatch functions by name.
        .target(name: "CTaskOwnership", linkerSettings: [.linkedLibrary("dispatch")]),
        // What a scenario declares for its fakes, as values: routes, their matchers and answers, stream scripts, value
        // shapes, and the definitions of a team's services. No session runs here, so clients may link it.
        .target(name: "Fakes", dependencies: [
            "Services", .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Mustache", package: "swift-mustache"),
        ]),
        // What a session runs on: its executor and scope, the task-ownership hooks, and the fakes that run in it (the
        // routed network, the virtual clock, the seeded store). The engine's alone: no client links it (DESIGN §3).
        .target(name: "SessionRuntime", dependencies: [
            "Services", "Fakes", "CTaskOwnership", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Mustache", package: "swift-mustache"), .product(name: "HeapModule", package: "swift-collections"),
        ]),
        // Network fakes for GraphQL: a schema and its data answer any query with exactly what it selects
        // (GraphQLSwift parses, validates and executes).
        .target(name: "GraphQLFakes", dependencies: [
            "Services", "Fakes", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "GraphQL", package: "GraphQL"), .product(name: "OrderedCollections", package: "swift-collections"),
        ]),
        // Network fakes for gRPC: a descriptor set reads and writes the messages as JSON.
        .target(name: "GRPCFakes", dependencies: [
            "Services", "Fakes", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ]),
        // SQLite, as SwiftPM sees it (Debian's libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The production implementations: the real network, a durable store, the system clock.
        .target(name: "LiveServices", dependencies: [
            "Services", "CSQLite",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "WSClient", package: "swift-websocket"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "GRPCCore", package: "grpc-swift-2"),
            .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
        ]),
        // scenario.yaml → validated, resolved scenarios. Imports Fakes for the route types it produces.
        .target(name: "ScenarioFormat", dependencies: [
            "Services", "Fakes", "GraphQLFakes", "GRPCFakes", "Yams", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Mustache", package: "swift-mustache"),
        ], resources: [
            // The built-in sections' JSON Schema, which ScenarioSchema completes with a daemon's Models and services.
            .embedInCode("Resources/scenario.schema.json"),
        ]),
        // Sessions, the Model registry, the journal and events: the engine, no sockets, no concrete Model. It refuses in
        // the control API's codes (ControlAPI's APIErrorCode), one vocabulary from the engine to the clients.
        .target(name: "ScenarioHost", dependencies: [
            "Services", "Fakes", "SessionRuntime", "LiveServices", "ScenarioFormat", "ControlAPI", .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        // The control API's request and response bodies, shared by the server and its clients.
        .target(name: "ControlAPI", dependencies: ["Services"]),
        // The control API over a Unix socket (path or an inherited, socket-activated descriptor).
        .target(name: "ControlServer", dependencies: [
            "ScenarioHost", "ScenarioFormat", "ControlAPI", "Services", "Fakes", "CMalloc", "ScenarioClient", "ScenarioExplore",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOExtras", package: "swift-nio-extras"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [
            // The dashboard, compiled into the binary: it works with no network and no files beside the daemon.
            // Its files are listed once, in DashboardAsset.named.
            .embedInCode("Dashboard"),
        ]),
        // libsystemd, as SwiftPM sees it; the shim makes sd_journal_* callable (see FIELD-NOTES).
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // The journal LogHandler, sd_notify, the watchdog and socket activation.
        .target(name: "Systemd", dependencies: [
            "CSystemd",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // A typed Swift client of the control API over the Unix socket.
        .target(name: "ScenarioClient", dependencies: [
            "ControlAPI", "Services",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // A URLProtocol that sends an app's requests to a session endpoint; Foundation only, so an app can link it anywhere.
        .target(name: "ScenarioURLLoading"),
        // Seeded walks through a Model's steps, checked against properties and shrunk; over any ScenarioClient.
        .target(name: "ScenarioExplore", dependencies: ["ScenarioClient", "ControlAPI", "Services", "ScenarioFormat", "Fakes"]),
        // HAR files, WireMock mappings and OpenAPI documents → scenario directories; no daemon, no network.
        .target(name: "ScenarioImport", dependencies: [
            "ScenarioFormat", "GraphQLFakes", "Services", "Fakes", "Yams", .product(name: "GraphQL", package: "GraphQL"), .product(name: "OrderedCollections", package: "swift-collections"), .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "OpenAPIKit", package: "OpenAPIKit"), .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
            .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
        ]),
        // For test suites: a daemon for the run, a session per test, state and journal assertions.
        // Both modes: a daemon process over its socket, or the engine in the test's process (no socket).
        .target(name: "ScenarioTesting", dependencies: [
            "ScenarioClient", "ControlAPI", "Services", "Fakes", "ControlServer", "ScenarioHost", "ScenarioFormat", "ScenarioExplore",
        ]),
        // The daemon as a library: flags, socket and state rules, reload, status, systemd; any team's Models.
        .target(name: "ScenarioDaemon", dependencies: [
            "ControlServer", "ScenarioHost", "ScenarioFormat", "Systemd", "Services", "Fakes",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]),
        // Packaging: builds a daemon product and runs scripts/package-daemon on it.
        .plugin(name: "PackageDaemon", capability: .command(
            intent: .custom(verb: "package-daemon", description: "Build a daemon product and package it as a Debian package and an OCI image"),
            permissions: [.writeToPackageDirectory(reason: "The .deb and the OCI image archive are written to .build/package")])),
        // The shipped daemon: the three example Models, registered in main and nowhere else.
        .executableTarget(name: "scenariod", dependencies: ["ScenarioDaemon", "FeedReader", "Ratings", "Assistant", "TripPlanner"]),
        // The client; `validate` asks a daemon executable (`--check`), which knows its own Models.
        .executableTarget(name: "scenarioctl", dependencies: [
            "ScenarioClient", "ControlAPI", "Services", "ScenarioExplore", "ScenarioImport",
            .product(name: "MCP", package: "swift-sdk"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            // `scenarioctl dashboard`: the loopback bridge to the daemon's socket.
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            // `scenarioctl send`: a status line's reason phrase, as curl -i prints it.
            .product(name: "NIOHTTP1", package: "swift-nio"),
            // `scenarioctl explore`: Ctrl-C stops the walks and deletes their sessions.
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]),
        // A team's daemon for the end-to-end and system tests: one Model and one service of its own (scenariod's
        // Models use none), so the service API is driven over a socket. Built by every build, never packaged.
        .executableTarget(name: "fixtured", dependencies: ["ScenarioDaemon", "Fakes", "Services", "TaskModels"], path: "Tests/Fixtures/fixtured"),
        // Models that start their own tasks (a @MainActor class with a Task {} timer, fan-outs, escapes), for the
        // tests of the session's ownership of them; hosted by fixtured and in-process. Not shipped.
        .target(name: "TaskModels", dependencies: ["Services", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Tests/Fixtures/TaskModels"),

        .testTarget(name: "FakesTests", dependencies: ["Fakes", "SessionRuntime", "Services", .product(name: "HTTPTypes", package: "swift-http-types")]),
        // The live services against servers and database files the tests create; never the internet.
        .testTarget(name: "LiveServicesTests", dependencies: [
            "LiveServices", "Services", "FeedReader", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        ]),
        .testTarget(name: "ModelTests", dependencies: ["FeedReader", "Ratings", "Assistant", "Fakes", "SessionRuntime", "Services", .product(name: "HTTPTypes", package: "swift-http-types")]),
        // The malformed-scenario corpus is read from the source tree (#filePath), because SwiftPM resources
        // would follow the symlinks some cases are about.
        .testTarget(name: "ScenarioFormatTests", dependencies: ["ScenarioFormat", "Fakes", "SessionRuntime", "Services", .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Yams", package: "Yams")], exclude: ["Malformed"]),
        // The OpenAPI documents and WireMock mappings are read from the source tree (#filePath), as the malformed-scenario corpus is.
        .testTarget(name: "ScenarioImportTests", dependencies: ["ScenarioImport", "ScenarioFormat", "GraphQLFakes", "Services", "Fakes", .product(name: "GraphQL", package: "GraphQL"), .product(name: "Yams", package: "Yams"), .product(name: "HTTPTypes", package: "swift-http-types")], exclude: ["OpenAPI", "WireMock"]),
        .testTarget(name: "ScenarioHostTests", dependencies: ["ScenarioHost", "ScenarioFormat", "GraphQLFakes", "ControlAPI", "Services", "Fakes", "FeedReader", "Ratings", "Assistant", "TripPlanner", "TaskModels",
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        // The daemon library as a team that owns main uses it: a Service in its own group; and every library product
        // imported into one file, as a team's tests may.
        .testTarget(name: "ScenarioDaemonTests", dependencies: [
            "ScenarioDaemon", "FeedReader", "Services", "Fakes", "ScenarioFormat", "ControlAPI", "ScenarioClient", "ScenarioTesting",
            "ScenarioExplore", "ScenarioURLLoading",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // gRPC end to end: grpc-swift 2 clients through the session's transport, answered by routes, and live calls to a
        // grpc-swift server on loopback; the message codec checked against swift-protobuf's own JSON mapping.
        .testTarget(name: "GRPCTests", dependencies: [
            "ScenarioGRPC", "GRPCFakes", "SessionRuntime", "ScenarioFormat", "LiveServices", "Fakes", "Services", "TripPlanner",
            .product(name: "GRPCCore", package: "grpc-swift-2"), .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            .product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // The example suite users copy: FeedReader and Ratings tested through scenarios only, in parallel.
        .testTarget(name: "ExampleSuiteTests", dependencies: [
            "ScenarioTesting", "ScenarioExplore", "ScenarioClient", "ControlAPI", "Services", "Fakes", "TaskModels", "FeedReader", "Ratings", "Assistant", "TripPlanner",
            "ScenarioURLLoading",
        ]),
        // End to end: the real binaries on temporary sockets, driven by ScenarioClient, scenarioctl and curl.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ScenarioClient", "ControlAPI", "Services",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["journal-fields.sh", "verify-units.sh"]),

    ]
)

// In-process figures for BENCHMARKS.md (`swift package benchmark`); scripts/benchmark runs them with the socket harness
// beside them. Built by every `swift build`, so they never rot; left out of the packaged builds (scripts/build-deb sets
// SCENARIOD_PACKAGING), whose -Xlinker --wrap flags would reach the benchmark plugin's tool, which does not define the
// wrapped functions.
if Context.environment["SCENARIOD_PACKAGING"] == nil {
    // The malloc interposer (not jemalloc, which these machines lack) counts allocations.
    package.dependencies.append(.package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(.executableTarget(
        name: "ScenarioBenchmarks",
        dependencies: [
            "ScenarioHost", "ScenarioFormat", "ControlServer", "LiveServices", "Fakes", "SessionRuntime", "Services", "FeedReader", "Ratings", "Assistant",
            "TripPlanner", "ScenarioTesting", "ScenarioClient", "ScenarioExplore",
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Benchmarks/ScenarioBenchmarks",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
    // The socket harness's second reference for a test's four requests: Hummingbird alone answering the same bytes.
    package.targets.append(.executableTarget(
        name: "HummingbirdFloor",
        dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
        ],
        path: "Benchmarks/HummingbirdFloor"))
}

// The compiler keeps the module lines (DESIGN §3), as in Hummingbird: an import is internal unless written
// `public import`, a member needs its module imported, and existentials say `any`.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
