import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory package-daemon --product NAME`: a team's daemon as a Debian
/// package (its units, scenarios, man page and group) and an OCI image, as scenariod ships itself.
///
/// The plugin builds the product (release, Swift runtime linked statically) through SwiftPM, which holds the build
/// directory while a plugin runs, then hands the binary to scenariod's `scripts/package-daemon`, which stages the
/// files and runs dpkg-deb and buildah: the same script scenariod's own `scripts/build-deb` uses.
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

        print("package-daemon: building \(product) (release, Swift runtime linked statically)")
        var parameters = PackageManager.BuildParameters(configuration: .release, logging: .concise)
        parameters.otherSwiftcFlags = ["-static-stdlib"]
        let build = try packageManager.build(.product(product), parameters: parameters)
        guard build.succeeded, let binary = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == product }) else {
            throw PackagingError("the release build of \(product) failed:\n\(build.logText)")
        }
        guard let scenariod = Self.scenariodPackage(in: context.package) else {
            throw PackagingError("this package does not depend on scenariod, whose scripts/package-daemon does the packaging")
        }
        // scenarioctl goes into the image, for readiness probes and `exec` into the container.
        let client = try packageManager.build(.product("scenarioctl"), parameters: parameters)
        guard client.succeeded, let ctl = client.builtArtifacts.first(where: { $0.url.lastPathComponent == "scenarioctl" }) else {
            throw PackagingError("the release build of scenarioctl failed:\n\(client.logText)")
        }
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [scenariod.directoryURL.appending(path: "scripts/package-daemon").path(), "--bin", binary.url.path(),
                            "--ctl", ctl.url.path()] + passed
        try script.run()
        script.waitUntilExit()
        guard script.terminationStatus == 0 else { throw PackagingError("packaging \(product) failed (status \(script.terminationStatus))") }
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

struct PackagingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "package-daemon: \(description)" }
}
