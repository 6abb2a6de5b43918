import ArgumentParser
import Foundation
import ScenarioImport

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a scenario from what you have: a HAR file, WireMock mappings, an OpenAPI document, a GraphQL schema.",
        discussion: """
        Each writes OUT/NAME (a scenario directory: scenario.yaml and fixtures) that passes the offline check, and \
        lists every part of the source it could not translate, with the reason. Bad input is refused with its place \
        and nothing is written. Serve the result with `scenariod --scenarios OUT --scenario NAME`.
        """,
        subcommands: [ImportHAR.self, ImportWireMock.self, ImportOpenAPI.self, ImportGraphQL.self])
}

/// What every import verb takes: where to write and what to call the scenario.
struct ImportTarget: ParsableArguments {
    @Option(help: ArgumentHelp("The new scenario's name (default: the source's file name without its extension).", valueName: "name"))
    var scenario: String?
    @Option(help: ArgumentHelp("The Model the scenario runs (`scenarioctl models` lists a daemon's).", valueName: "name"))
    var model: String
    @Option(help: ArgumentHelp("The directory of scenarios to write NAME into (default: the current directory).", valueName: "dir"))
    var out = "."
    @Option(help: ArgumentHelp("The daemon whose Models --model must name, as for `scenarioctl validate`: a name looked up on PATH, or a path (default: scenariod beside this scenarioctl, or on PATH).",
                               valueName: "name|path"))
    var daemon: String?
    @OptionGroup var format: OutputOptions

    /// The scenario's name: given, or the source's base name made safe.
    func name(for source: String) throws -> String {
        let name = scenario ?? String(((source as NSString).lastPathComponent as NSString).deletingPathExtension
            .map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
        guard !name.isEmpty, !name.hasPrefix("."), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw ValidationError("'\(name)' cannot name a scenario: use letters, digits, '-', '_' and '.', not starting with '.' (--scenario NAME).")
        }
        return name
    }

    /// Reads the source file, or exits 1 saying why.
    func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Self.fail("cannot read \(path): \((error as NSError).localizedDescription)")
        }
    }

    /// Builds the scenario and writes it; prints what was written and what was not translated.
    func run(_ build: () throws(ImportError) -> ImportedScenario) throws {
        try checkModel()
        let scenario: ImportedScenario
        do {
            scenario = try build()
        } catch {
            throw Self.fail("\(error)\nNothing was written.")
        }
        let directory: URL
        do {
            directory = try scenario.write(into: URL(fileURLWithPath: out))
        } catch let error as CocoaError where error.code == .fileWriteFileExists {
            throw Self.fail("\((out as NSString).appendingPathComponent(scenario.name)) exists; choose another --scenario or --out, or remove it. Nothing was written.")
        } catch let error as ImportCheckFailure {
            throw Self.fail("\(error)")
        } catch {
            throw Self.fail("cannot write into \(out): \((error as NSError).localizedDescription). Nothing was written.")
        }
        let fixtures = scenario.files.keys.filter { $0.hasPrefix("fixtures/") }.count
        if format.json {
            print(Output.json(ImportSummary(scenario: scenario.name, model: scenario.model, directory: directory.path,
                                            routes: scenario.routeCount, fixtures: fixtures, untranslated: scenario.untranslated)))
            return
        }
        print("Wrote \(directory.path): \(scenario.routeCount) route\(scenario.routeCount == 1 ? "" : "s"), \(fixtures) fixture file\(fixtures == 1 ? "" : "s").")
        if !scenario.untranslated.isEmpty {
            print("Not translated (\(scenario.untranslated.count), also listed at the top of scenario.yaml):")
            for part in scenario.untranslated { print("  \(part.source): \(part.reason)") }
        }
        print("Serve it: scenariod --scenarios \(out) --scenario \(scenario.name)")
    }

    /// Refuses a `--model` the daemon does not run, before anything is written, so an import never writes a scenario
    /// that `validate` and the daemon refuse. The daemon is asked offline, as `validate` asks it (`DAEMON
    /// --print-schema` names its Models); without one to ask, the import says it could not check and goes on.
    func checkModel() throws {
        let executable: String
        do {
            executable = try daemon.map { try Validate.executable(named: $0, path: ProcessInfo.processInfo.environment["PATH"]) } ?? Validate.shippedDaemon()
        } catch where daemon == nil {
            FileHandle.standardError.write(Data("scenarioctl: no scenariod beside scenarioctl or on PATH, so --model \(model) was not checked; give --daemon NAME or PATH to check it.\n".utf8))
            return
        }
        let models = try Self.models(of: executable)
        guard !models.contains(model) else { return }
        let sameButCase = models.first { $0.lowercased() == model.lowercased() }.map { " Did you mean '\($0)'?" } ?? ""
        throw Self.fail("there is no Model '\(model)' in \(executable), so the scenario would not load.\(sameButCase) Its Models: \(models.joined(separator: ", ")). Give --model one of them, or --daemon the daemon that runs yours. Nothing was written.")
    }

    /// The Models `executable` runs, from the `model` enum of its scenario schema.
    private static func models(of executable: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--print-schema"]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw fail("cannot run the daemon \(executable) to check --model: \(error.localizedDescription); give --daemon NAME or PATH. Nothing was written.")
        }
        let schema = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Schema: Decodable {
            struct Properties: Decodable {
                struct Model: Decodable { var `enum`: [String] }
                var model: Model
            }
            var properties: Properties
        }
        guard process.terminationStatus == 0, let models = try? JSONDecoder().decode(Schema.self, from: schema).properties.model.enum else {
            throw fail("the daemon \(executable) did not print its scenario schema (--print-schema), so --model cannot be checked; give --daemon the daemon that runs your Model. Nothing was written.")
        }
        return models
    }

    private static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("scenarioctl: \(message)\n".utf8))
        return ExitCode(1)
    }
}

/// `--json`'s answer: what was written where, and what was not translated.
struct ImportSummary: Encodable {
    var scenario: String
    var model: String
    var directory: String
    var routes: Int
    var fixtures: Int
    var untranslated: [UntranslatedPart]
}

struct ImportHAR: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Import a HAR 1.2 file (browser devtools, Playwright's recordHar, Proxyman, Charles).",
        discussion: """
        One route per distinct request (method, URL, query, JSON body), with the answers in recorded order; a read \
        whose answer changed after a write answers by cause (after:); bodies become fixture files, binary ones byte \
        for byte. Credentials are left out as in a recording (Authorization, Cookie, Set-Cookie, secret body fields) \
        unless --keep-secrets. A redirect the browser followed answers with where it led. Requests that got no response (blocked, aborted) are listed, not imported. The clock \
        starts, frozen, at the first request's time.
        """)
    @Argument(help: "The HAR file.") var file: String
    @OptionGroup var target: ImportTarget
    @Flag(help: "Keep Authorization, Cookie and Set-Cookie values and secret body fields.") var keepSecrets = false

    func run() throws {
        let data = try target.read(file)
        let options = ImportOptions(scenario: try target.name(for: file), model: target.model, keepSecrets: keepSecrets)
        try target.run { () throws(ImportError) in try HARImporter.importScenario(from: data, file: file, options: options) }
    }
}

struct ImportOpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Import an OpenAPI 3.0 or 3.1 document (JSON or YAML).",
        discussion: """
        One route per operation and documented response: an operation answers its first success response; every \
        other documented response answers a request with the header `Prefer: code=CODE` (Stoplight Prism's \
        convention). Paths with templates (/pets/{id}) match by URL pattern. Bodies come from the document's \
        examples, else are generated from the schema, the same for the same --seed. Routes match method and URL only. \
        References must resolve inside the document: bundle a document of several files first.
        """)
    @Argument(help: "The OpenAPI document.") var file: String
    @OptionGroup var target: ImportTarget
    @Option(help: ArgumentHelp("The origin the paths are joined to (default: the document's first absolute server, else http://localhost:8080).", valueName: "url"))
    var baseURL: String?
    @Option(help: "The seed of bodies generated from schemas.") var seed: UInt64 = 0

    func run() throws {
        let data = try target.read(file)
        let options = ImportOptions(scenario: try target.name(for: file), model: target.model, baseURL: baseURL, seed: seed)
        try target.run { () throws(ImportError) in try OpenAPIImporter.importScenario(from: data, file: file, options: options) }
    }
}

struct ImportWireMock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wiremock",
        abstract: "Import WireMock mappings (DIR/mappings/*.json, bodies in DIR/__files).",
        discussion: """
        URL, method, header, query and JSON body matchers, responses (status, headers, body, jsonBody, base64Body, \\
        bodyFileName), fixed delays (on the virtual clock), connection-reset faults, priorities, and scenarios' state \\
        machines where the translation is exact (a chain on one request → responses in order; a state a write sets → \\
        after:). Everything else is listed per mapping with the reason; a matcher WireMock does not have is refused.
        """)
    @Argument(help: "The WireMock root directory (holding mappings/).") var directory: String
    @OptionGroup var target: ImportTarget
    @Option(help: ArgumentHelp("The origin WireMock's paths are joined to (default: http://localhost:8080).", valueName: "url"))
    var baseURL: String?
    @Flag(help: "Keep credentials (basicAuthCredentials, Authorization and Cookie matchers, Set-Cookie values).") var keepSecrets = false

    func run() throws {
        let options = ImportOptions(scenario: try target.name(for: directory), model: target.model, baseURL: baseURL, keepSecrets: keepSecrets)
        try target.run { () throws(ImportError) in
            try WireMockImporter.importScenario(fromDirectory: URL(fileURLWithPath: directory), options: options)
        }
    }
}

struct ImportGraphQL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Import a GraphQL schema (SDL, or the JSON of an introspection query's result).",
        discussion: """
        One route answered by a GraphQL endpoint at BASE/graphql with the schema and generated data (two entries of \
        every object type, every field filled, references by id), so any query the schema allows is answered; \
        mutations named create/add, update/edit/set and delete/remove change the data; a schema with subscriptions \
        gets a WebSocket route whose subscriptions send one generated event each, at +1s. Edit fixtures/data.json \
        into the data your demo needs.
        """)
    @Argument(help: "The schema: a .graphql file, or an introspection result (.json).") var file: String
    @OptionGroup var target: ImportTarget
    @Option(help: ArgumentHelp("The origin the endpoint is at (default: http://localhost:8080).", valueName: "url"))
    var baseURL: String?

    func run() throws {
        let data = try target.read(file)
        let options = ImportOptions(scenario: try target.name(for: file), model: target.model, baseURL: baseURL)
        try target.run { () throws(ImportError) in try GraphQLImporter.importScenario(from: data, file: file, options: options) }
    }
}
