// swift-tools-version: 6.1
import PackageDescription

// A team's own daemon, built on scenariod as a package: its Model (TodoList), its scenarios, its executable
// (todod) and its tests. It depends on scenariod by path here; a team writes the package's URL instead.
let package = Package(
    name: "TodoDaemon",
    products: [
        .executable(name: "todod", targets: ["todod"]),
    ],
    dependencies: [
        .package(name: "scenariod", path: "../.."),
    ],
    targets: [
        // The Model: application logic that sees the Services protocols only.
        .target(name: "TodoList", dependencies: [.product(name: "Services", package: "scenariod")]),
        // The fakes of the team's own services, configured by scenarios (as Fakes holds scenariod's).
        .target(name: "TodoFakes", dependencies: ["TodoList", .product(name: "Fakes", package: "scenariod")]),
        // The daemon: one call in main.
        .executableTarget(name: "todod", dependencies: [
            "TodoList", "TodoFakes", .product(name: "ScenarioDaemon", package: "scenariod"),
            .product(name: "Fakes", package: "scenariod"),
        ]),
        // The team's tests select its scenarios and drive its daemon.
        .testTarget(name: "TodoListTests", dependencies: [
            "TodoList", "TodoFakes",
            .product(name: "ScenarioTesting", package: "scenariod"),
            .product(name: "ScenarioClient", package: "scenariod"),
            .product(name: "ControlAPI", package: "scenariod"),
            .product(name: "Fakes", package: "scenariod"),
            .product(name: "Services", package: "scenariod"),
        ]),
    ]
)
