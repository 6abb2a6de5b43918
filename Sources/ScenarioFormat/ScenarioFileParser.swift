import Fakes
import Foundation
import GRPCFakes
import GraphQLFakes
import HTTPTypes
import Services
import Yams

/// Turns the text of one `scenario.yaml` into a ``ScenarioFile``, reporting every problem with its place.
struct ScenarioFileParser {
    var reader: NodeReader
    let fixtures: FixtureReader
    let services: [ServiceDefinition]
    private(set) var file: ScenarioFile
    /// Filled as routes are parsed; moved into the file at the end.
    var causalLinks: [ScenarioFile.CausalLink] = []
    /// Where fixture paths are looked up: this file's directory, then those of the scenarios it extends.
    var fixtureDirectories: [URL]
    /// The exact URL of the route being parsed, which names a gRPC answer's method.
    var routeURL: String?
    /// The descriptor sets read so far, by their bytes: every gRPC route of a file names the same set, read once.
    var descriptorPools: [Data: DescriptorPool] = [:]
    /// The GraphQL schemas made so far, by their SDL: the routes of a file that serve one schema (its queries and
    /// its subscriptions) share it, made once, since making one is most of a scenario's load.
    var graphQLSchemas: [String: Result<SchemaLifetime, GraphQLEndpointProblems>] = [:]

    init(name: String, directory: URL, path: String, fixtures: FixtureReader, services: [ServiceDefinition]) {
        self.reader = NodeReader(file: path)
        self.fixtures = fixtures
        self.services = services
        self.file = ScenarioFile(name: name, path: path, directory: directory)
        self.fixtureDirectories = [directory]
    }

    /// Parses `yaml`; the file is usable only when the problems are empty.
    mutating func parse(_ yaml: String) -> (ScenarioFile, [ScenarioProblem]) {
        guard let root = compose(yaml) else { return (file, reader.problems) }
        return parse(root)
    }

    /// The YAML document of `yaml`, or nil with its syntax problem reported.
    mutating func compose(_ yaml: String) -> Node? {
        do {
            // The encoding given, so Yams does not read the environment for it on every file; the resolver without
            // rules, because ImplicitTags types plain scalars as Yams's default one would, without its regexes.
            guard let node = try Yams.compose(yaml: yaml, .basic, .default, .utf8) else {
                reader.report("the file is empty; a scenario needs at least 'description' and 'model'.", at: nil)
                return nil
            }
            return ImplicitTags.resolve(node)
        } catch let error as YamlError {
            reportSyntax(error, in: yaml)
        } catch {
            reader.report("the file is not valid YAML: \(error)", at: nil)
        }
        return nil
    }

    /// The scenario a composed document `extends`, as written, before anything is checked.
    static func extends(of root: Node) -> String? {
        root.mapping?["extends"]?.scalar?.string
    }

    /// Parses a document `compose` returned; the file is usable only when the problems are empty.
    mutating func parse(_ root: Node) -> (ScenarioFile, [ScenarioProblem]) {
        let allowed = ScenarioFile.topLevelKeys + services.map(\.name)
        guard let top = reader.mapping(root, at: "the scenario", allowed: allowed, required: ["description"]) else {
            return (file, reader.problems)
        }
        if let node = top["description"] { file.description = reader.string(node, at: "description") }
        if let node = top["model"], let model = reader.string(node, at: "model") { file.model = located(model, node) }
        if let node = top["extends"], let parent = reader.string(node, at: "extends") { file.extends = located(parent, node) }
        if let node = top["clock"] { parseClock(node) }
        if let node = top["keyValue"] { parseKeyValue(node) }
        if let node = top["random"] { parseRandom(node) }
        if let node = top["schedule"] { parseSchedule(node) }
        if let node = top["network"] { parseNetwork(node) }
        for service in services {
            if let node = top[service.name] { parseService(node, of: service) }
        }
        file.causalLinks = causalLinks
        return (file, reader.problems)
    }

    private func located<Value>(_ value: Value, _ node: Node) -> ScenarioFile.Located<Value> {
        .init(value: value, line: node.mark?.line, column: node.mark?.column)
    }

    private mutating func reportSyntax(_ error: YamlError, in yaml: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text))" } ?? ""
            reader.report("YAML syntax error: \(problem)\(while_).", line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams marks the mapping; point at the repeated key itself, the second line that starts with it.
            let key = duplicates.first ?? ""
            let place = yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset + 1 >= context.mark.line && $0.element.trimmingCharacters(in: .whitespaces).hasPrefix("\(key):") }
                .dropFirst().first
            reader.report("duplicate key '\(key)' in one mapping; keep one.",
                          line: place.map { $0.offset + 1 } ?? context.mark.line,
                          column: place.map { $0.element.prefix { $0 == " " }.count + 1 } ?? context.mark.column)
        default:
            reader.report("the file is not valid YAML: \(error)", at: nil)
        }
    }

    private mutating func parseClock(_ node: Node) {
        var clock = ClockSettings.default
        // `clock: system` is short for `clock: { mode: system }`.
        if case .scalar = node {
            if let mode = reader.choice(node, at: "clock", of: ClockMode.self) { clock.mode = mode }
            file.clock = clock
            return
        }
        guard let keys = reader.mapping(node, at: "clock", allowed: ["start", "mode", "timeZone"]) else { return }
        if let start = keys["start"], let instant = reader.instant(start, at: "clock.start") { clock.start = instant }
        if let mode = keys["mode"], let value = reader.choice(mode, at: "clock.mode", of: ClockMode.self) { clock.mode = value }
        if clock.mode == .system, let start = keys["start"] {
            reader.report("clock.start does not apply to the system clock, which reads the real time; remove it.", at: start)
        }
        if let zone = keys["timeZone"], let name = reader.string(zone, at: "clock.timeZone") {
            if TimeZone(identifier: name) != nil {
                clock.timeZone = name
            } else {
                reader.report("clock.timeZone '\(name)' is not a time zone this system knows; write an IANA name such as Europe/London or America/New_York."
                              + Suggestion.didYouMean(name, among: TimeZone.knownTimeZoneIdentifiers), at: zone)
            }
        }
        file.clock = clock
    }

    private mutating func parseRandom(_ node: Node) {
        // `random: system` is short for the system's generator; otherwise a seed.
        if case .scalar = node {
            guard reader.string(node, at: "random") == "system" else {
                reader.report("random must be 'system' or a mapping with a seed (random: { seed: 42 }), got \(reader.describe(node)).", at: node)
                return
            }
            file.random = .system
            return
        }
        guard let keys = reader.mapping(node, at: "random", allowed: ["seed"], required: ["seed"]),
              let seed = keys["seed"], let value = reader.int(seed, at: "random.seed", in: 0...Int.max) else { return }
        file.random = .seeded(UInt64(value))
    }

    private mutating func parseSchedule(_ node: Node) {
        guard let keys = reader.mapping(node, at: "schedule", allowed: ["seed"], required: ["seed"]),
              let seed = keys["seed"], let value = reader.int(seed, at: "schedule.seed", in: 0...Int.max) else { return }
        file.scheduleSeed = UInt64(value)
    }

    /// A team service's section: a mapping of the fake's state (checked against its type when `extends` is
    /// resolved, since a child's section merges into its parent's), or `live`.
    private mutating func parseService(_ node: Node, of service: ServiceDefinition) {
        if case .scalar = node {
            guard reader.string(node, at: service.name) == "live" else {
                reader.report("\(service.name) must be 'live' or a mapping of its fake's state (\(service.stateType)), got \(reader.describe(node)).", at: node)
                return
            }
            guard service.hasLive else {
                reader.report("\(service.name) has no live implementation in this daemon; give its fake's state as a mapping instead.", at: node)
                return
            }
            file.serviceSections[service.name] = .live
            return
        }
        guard case .mapping = node else {
            reader.report("\(service.name) must be a mapping of its fake's state (\(service.stateType)), got \(reader.describe(node)).", at: node)
            return
        }
        file.serviceSections[service.name] = .state(LocatedValue(node, file: file.path, reader: reader))
    }

    private mutating func parseKeyValue(_ node: Node) {
        guard let keys = reader.mapping(node, at: "keyValue", allowed: ["store", "seed", "seedFile", "inheritSeed"]) else { return }
        if let store = keys["store"] { file.keyValueStore = reader.choice(store, at: "keyValue.store", of: KeyValueStoreKind.self) }
        if let inherit = keys["inheritSeed"], let flag = reader.bool(inherit, at: "keyValue.inheritSeed") {
            file.inheritsSeed = flag
            if file.extends == nil {
                reader.report("keyValue.inheritSeed applies to a scenario that extends another; this one extends none, so remove it.", at: inherit)
            }
        }
        if let seedFile = keys["seedFile"], let path = reader.string(seedFile, at: "keyValue.seedFile"),
           let data = fixture(path, at: "keyValue.seedFile", node: seedFile) {
            if case .object(let values)? = try? JSONValue(json: data) {
                for (key, value) in values { file.seed[key] = value.jsonData }
            } else {
                reader.report("keyValue.seedFile '\(path)' must hold a JSON object of keys to values.", at: seedFile)
            }
        }
        if let seed = keys["seed"] {
            guard case .mapping = seed, case .object(let values) = reader.json(seed) else {
                reader.report("keyValue.seed must be a mapping of keys to values, got \(reader.describe(seed)).", at: seed)
                return
            }
            for (key, value) in values { file.seed[key] = value.jsonData }
        }
    }

    private mutating func parseNetwork(_ node: Node) {
        // `network: live` is short for `network: { mode: live }`.
        if case .scalar = node {
            if let mode = reader.choice(node, at: "network", of: NetworkSettings.Mode.self) { file.networkMode = located(mode, node) }
            return
        }
        let allowed = ["mode", "unmatched", "routes", "timeouts", "redirects", "forward", "redact"]
        guard let keys = reader.mapping(node, at: "network", allowed: allowed) else { return }
        if let mode = keys["mode"], let value = reader.choice(mode, at: "network.mode", of: NetworkSettings.Mode.self) {
            file.networkMode = located(value, mode)
        }
        if let unmatched = keys["unmatched"] {
            file.unmatched = reader.choice(unmatched, at: "network.unmatched", of: TransportError.self)
            if let mode = file.networkMode?.value, mode != .fake {
                reader.report("network.unmatched applies to mode 'fake' only; in mode '\(mode.rawValue)' unmatched requests go to the live network.", at: unmatched)
            }
        }
        if let timeouts = keys["timeouts"], let limits = reader.mapping(timeouts, at: "network.timeouts", allowed: ["connect", "read"]) {
            file.connectTimeout = limits["connect"].flatMap { reader.duration($0, at: "network.timeouts.connect") }
            file.readTimeout = limits["read"].flatMap { reader.duration($0, at: "network.timeouts.read") }
        }
        if let redirects = keys["redirects"] { file.redirects = reader.int(redirects, at: "network.redirects", in: 0...20) }
        if let forward = keys["forward"], let origins = reader.textMap(forward, at: "network.forward") {
            file.forwardPlace = located((), forward)
            for (origin, target) in origins.sorted(by: { $0.key < $1.key }) {
                for (role, value) in [("origin", origin), ("target", target)] where !Self.isOrigin(value) {
                    reader.report("network.forward \(role) '\(value)' must be an origin: http, https, ws or wss, a host, an optional port, no path (e.g. http://127.0.0.1:8080).", at: forward)
                }
                file.forward[origin] = target
            }
        }
        if let redact = keys["redact"], let pointers = reader.sequence(redact, at: "network.redact", of: "JSON pointers") {
            for (index, node) in pointers.enumerated() {
                guard let pointer = reader.string(node, at: "network.redact[\(index)]") else { continue }
                guard pointer.hasPrefix("/") else {
                    reader.report("network.redact[\(index)] must be a JSON pointer such as /user/ssn, got '\(pointer)'.", at: node)
                    continue
                }
                file.redact.append(pointer)
            }
        }
        guard let routesNode = keys["routes"], let routes = reader.sequence(routesNode, at: "network.routes", of: "routes") else {
            return
        }
        var firstUse: [String: Int] = [:]
        for (index, routeNode) in routes.enumerated() {
            let patches = routeNode.mapping?["extends"] != nil
            // Names are checked even for a route with problems of its own, so one pass reports every problem.
            if case .mapping(let mapping) = routeNode, let name = (mapping["extends"] ?? mapping["name"])?.scalar?.string {
                if let line = firstUse[name] {
                    reader.report("network.routes[\(index)] reuses the route name '\(name)' (first used at line \(line)); route names must be unique.", at: routeNode)
                    if patches { _ = parseRoutePatch(routeNode, at: "network.routes[\(index)]") } else { _ = parseRoute(routeNode, at: "network.routes[\(index)]") }
                    continue
                }
                firstUse[name] = routeNode.mark?.line ?? 0
            }
            if patches {
                if let patch = parseRoutePatch(routeNode, at: "network.routes[\(index)]") { file.routePatches.append(patch) }
            } else if let route = parseRoute(routeNode, at: "network.routes[\(index)]") {
                file.routes.append(route)
            }
        }
    }

    /// `scheme://host[:port]` with nothing after it.
    private static func isOrigin(_ text: String) -> Bool {
        guard let url = URL(string: text), ["http", "https", "ws", "wss"].contains(url.scheme ?? ""), url.host != nil else { return false }
        return url.path.isEmpty && url.query == nil && url.fragment == nil && url.user == nil
    }

    mutating func fixture(_ path: String, at keyPath: String, node: Node) -> Data? {
        switch fixtures.read(path, in: fixtureDirectories) {
        case .success(let data): return data
        case .failure(let error):
            reader.report("\(keyPath): \(error.message)", at: node)
            return nil
        }
    }
}

