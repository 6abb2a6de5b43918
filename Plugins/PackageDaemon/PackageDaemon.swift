import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory package-daemon --product NAME`: a team's daemon as a Debian
/// package (its units, scenarios, man page and group, and scenarioctl with its man pages) and an OCI image, as
/// scenariod ships itself.
///
/// The plugin builds the product (release, Swift runtime linked statically) through SwiftPM, which holds the build
/// directory while a plugin runs, then hands the binary to scenariod's `scripts/package-daemon`, which stages the
/// files and runs dpkg-deb and buildah: the same script scenariod's own `scripts/build-deb` uses. Each stage is
/// announced as it starts and timed when it ends, the builds' own lines echoed as they come.
@main
struct PackageDaemon: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let executables = context.package.products(ofType: ExecutableProduct.self).map(\.name)
        let product = arguments.extractOption(named: "product").last ?? (executables.count == 1 ? executables[0] : "")
        guard executables.contains(product) else {
            throw PackagingError("name the daemon with --product NAME; this package's executables: \(executables.joined(separator: ", "))")
        }
        let package = context.package.directoryURL
        let scenarios = arguments.extractOption(named: "scenarios").last.map { package.appending(path: $0) }
            ?? package.appending(path: "scenarios")
        let out = arguments.extractOption(named: "out").last.map { package.appending(path: $0) }
            ?? package.appending(path: ".build/package")
        var passed = ["--name", product, "--scenarios", scenarios.path(), "--out", out.path()]
        for option in ["version", "format", "summary"] {
            if let value = arguments.extractOption(named: option).last { passed += ["--\(option)", value] }
        }
        guard arguments.remainingArguments.isEmpty else {
            throw PackagingError("unknown arguments \(arguments.remainingArguments.joined(separator: " ")); options: --product, --version, --format deb|oci|all, --summary, --scenarios, --out")
        }

        // Release builds take minutes: each stage says what it starts and how long it took, and SwiftPM's own
        // progress lines are echoed as they come, so the command is never silent for long.
        let progress = StageClock()
        let plan = "building \(product) and scenarioctl (release, Swift runtime linked statically), then packaging"
        progress.say("\(plan) into \(out.path())")
        var parameters = PackageManager.BuildParameters(configuration: .release, logging: .concise, echoLogs: true)
        parameters.otherSwiftcFlags = ["-static-stdlib"]
        // Nothing looks up the program's own symbols, which the static runtime's link exports (65,000 of scenariod's)
        // and the runtime's start-up dladdr scans: about 1 ms of every start (scripts/build-release). Both links.
        let linkerFlags = ["--no-export-dynamic"]
        // With the runtime linked in, sessions own their Models' tasks only through these (TaskOwnershipCheck.linkerFlags
        // in the Fakes module, which a plugin cannot import).
        parameters.otherLinkerFlags = linkerFlags + ["--wrap=swift_task_create", "--wrap=dispatch_after_f", "--wrap=dispatch_after", "--wrap=dispatch_async", "--wrap=dispatch_async_f"]
        progress.start("1/3 building \(product)")
        let build = try packageManager.build(.product(product), parameters: parameters)
        guard build.succeeded, let binary = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == product }) else {
            throw PackagingError("the release build of \(product) failed after \(progress.elapsed()):\n\(Self.errors(in: build))")
        }
        progress.done()
        guard let scenariod = Self.scenariodPackage(in: context.package) else {
            throw PackagingError("this package does not depend on scenariod, whose scripts/package-daemon does the packaging")
        }
        // scenarioctl goes into the .deb (with its man pages) and the image (readiness probes, `exec`).
        progress.start("2/3 building scenarioctl")
        // The client has no sessions, so it neither links the hooks nor takes the wraps.
        parameters.otherLinkerFlags = linkerFlags
        let client = try packageManager.build(.product("scenarioctl"), parameters: parameters)
        guard client.succeeded, let ctl = client.builtArtifacts.first(where: { $0.url.lastPathComponent == "scenarioctl" }) else {
            throw PackagingError("the release build of scenarioctl failed after \(progress.elapsed()):\n\(Self.errors(in: client))")
        }
        progress.done()
        progress.start("3/3 packaging with \(scenariod.directoryURL.appending(path: "scripts/package-daemon").path())")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [scenariod.directoryURL.appending(path: "scripts/package-daemon").path(), "--bin", binary.url.path(),
                            "--ctl", ctl.url.path()] + passed
        // The script reports its stages on stderr; relayed line by line as progress, they come when they happen.
        let stages = Pipe()
        script.standardError = stages
        try script.run()
        Self.relayLines(of: stages.fileHandleForReading, to: progress)
        script.waitUntilExit()
        guard script.terminationStatus == 0 else {
            throw PackagingError("packaging \(product) failed (status \(script.terminationStatus)) after \(progress.elapsed()); the script said why above")
        }
        progress.done()
        progress.say("done in \(progress.total())")
    }

    /// Says each line read from `handle` as progress, until the writer closes it (without the script's own prefix:
    /// SwiftPM puts the plugin's name before each).
    static func relayLines(of handle: FileHandle, to progress: StageClock) {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                progress.say(line.hasPrefix("package-daemon: ") ? String(line.dropFirst("package-daemon: ".count)) : line)
                pending = Data(pending[(newline + 1)...])
            }
        }
        if !pending.isEmpty { progress.say(String(decoding: pending, as: UTF8.self)) }
    }

    /// The error lines of a failed build (its whole log was echoed as it ran), or its log's end when none says error.
    static func errors(in build: PackageManager.BuildResult) -> String {
        let lines = build.logText.split(separator: "\n", omittingEmptySubsequences: false)
        let errors = lines.filter { $0.contains("error:") }
        return (errors.isEmpty ? lines.suffix(20) : errors.prefix(20)).joined(separator: "\n")
    }

    /// scenariod's package: this one, or the dependency that provides the daemon library.
    static func scenariodPackage(in package: Package) -> Package? {
        if package.targets.contains(where: { $0.name == "ScenarioDaemon" }) { return package }
        for dependency in package.dependencies {
            if let found = scenariodPackage(in: dependency.package) { return found }
        }
        return nil
    }
}

/// Prints each stage of the plugin as it starts and, when it ends, how long it took.
final class StageClock {
    private let clock = ContinuousClock()
    private let began: ContinuousClock.Instant
    private var stage: (name: String, began: ContinuousClock.Instant)?

    init() { began = clock.now }

    /// Prints `message` at once, after the plugin's name. SwiftPM flushes a progress message as it comes; what a
    /// plugin prints waits in SwiftPM's buffer until the end when the output is a pipe or a file (a CI log).
    func say(_ message: String) {
        Diagnostics.progress(message)
    }

    /// Starts stage `name` and says so.
    func start(_ name: String) {
        stage = (name, clock.now)
        say("\(name)…")
    }

    /// Ends the current stage and says how long it took.
    func done() {
        guard let stage else { return }
        say("\(stage.name): done in \(Self.seconds(clock.now - stage.began)) (\(total()) in all)")
        self.stage = nil
    }

    /// How long the current stage has run, for a failure's message.
    func elapsed() -> String { stage.map { Self.seconds(clock.now - $0.began) } ?? total() }

    /// How long the plugin has run.
    func total() -> String { Self.seconds(clock.now - began) }

    private static func seconds(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10 + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

struct PackagingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "package-daemon: \(description)" }
}
