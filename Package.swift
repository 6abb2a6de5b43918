// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "scenariod",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Services", targets: ["Services"]),
        .library(name: "ScenarioHost", targets: ["ScenarioHost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The protocols every Model sees, and the value types they pass.
        .target(name: "Services", dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")]),
        // Models: application logic; they import Services and nothing else of ours.
        .target(name: "FeedReader", dependencies: ["Services"]),
        .target(name: "Ratings", dependencies: ["Services"]),
        // Scenario-driven implementations of the services.
        .target(name: "Fakes", dependencies: ["Services"]),
        // scenario.yaml → validated, resolved scenarios. Imports Fakes for the route types it produces.
        .target(name: "ScenarioFormat", dependencies: ["Services", "Fakes", "Yams"]),
        // Sessions, the Model registry, the journal and events: the engine, no sockets.
        .target(name: "ScenarioHost", dependencies: ["Services", "Fakes", "ScenarioFormat", "FeedReader", "Ratings"]),

        .testTarget(name: "FakesTests", dependencies: ["Fakes", "Services"]),
        .testTarget(name: "ModelTests", dependencies: ["FeedReader", "Ratings", "Fakes", "Services"]),
        // The malformed-scenario corpus is read from the source tree (#filePath), because SwiftPM resources
        // would follow the symlinks some cases are about.
        .testTarget(name: "ScenarioFormatTests", dependencies: ["ScenarioFormat", "Fakes", "Services"], exclude: ["Malformed"]),
        .testTarget(name: "ScenarioHostTests", dependencies: ["ScenarioHost", "ScenarioFormat", "Services"]),
    ]
)
