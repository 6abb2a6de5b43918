public import Foundation
import ScenarioFormat
import Services
import Yams

/// WireMock stubs (a root directory with `mappings/*.json` and `__files/`) → a scenario: one route per mapping,
/// tried in WireMock's order (priority, then file name), its request matchers and response as scenario keys, the
/// response files copied into `fixtures/`, and WireMock's stateful scenarios as `responses` (a chain of states on one
/// request) or `after:` (a read whose answer a write's new state changes).
///
/// What scenariod cannot express (negative matchers, XML, random delays, transformers, proxying, tangled state
/// machines) is listed as an ``UntranslatedPart`` with the reason, never dropped silently; a route whose matcher had
/// to lose a condition (and so matches more than WireMock would) is listed too.
public enum WireMockImporter {
    /// Builds the scenario from a WireMock root directory (holding mappings/ and optionally __files/).
    /// - Parameters:
    ///   - directory: The root: the directory a WireMock server runs with as `--root-dir`.
    ///   - options: The scenario's name and Model; `baseURL` is the origin the mappings' paths are joined to.
    /// - Throws: ``ImportError`` with the file and place: a mapping that is not JSON (line and column), a matcher
    ///   WireMock does not have or a body file that is missing or outside `__files` (JSON pointer), or no mappings.
    public static func importScenario(fromDirectory directory: URL, options: ImportOptions) throws(ImportError) -> ImportedScenario {
        var context = Context(root: directory, options: options)
        let files = try mappingFiles(in: directory)
        var mappings: [Mapping] = []
        for file in files {
            mappings += try read(file, context: &context)
        }
        guard !mappings.isEmpty else {
            throw ImportError(file: directory.appendingPathComponent("mappings").path,
                              problem: "the directory has no WireMock mappings (no request/response objects in its .json files); point the import at a WireMock root holding mappings/*.json.")
        }
        // WireMock tries the lowest priority first (5 when unset); equal priorities keep the files' order.
        mappings.sort { ($0.priority, $0.file, $0.index) < ($1.priority, $1.file, $1.index) }
        let drafts = routeDrafts(mappings, notes: &context.notes)
        let names = routeNames(drafts)
        let byMapping = Dictionary(uniqueKeysWithValues: zip(drafts, names).flatMap { draft, name in draft.members.map { ($0, name) } })
        let routes = zip(drafts, names).map { draft, name in draft.node(name: name, routeNames: byMapping) }
        let folder = directory.standardizedFileURL.lastPathComponent
        var header = ["Imported by scenarioctl from WireMock mappings in \(folder); serves without a network."]
        if context.leftOutSecrets {
            header.append("Credentials were left out (Authorization and Cookie matchers match any value, Set-Cookie reads <redacted>); --keep-secrets keeps them.")
        }
        return ImportedScenario(
            name: options.scenario,
            description: "Imported from WireMock mappings in \(folder): \(mappings.count) mapping\(mappings.count == 1 ? "" : "s").",
            model: options.model, header: header, routes: routes, fixtures: context.fixtures, untranslated: context.notes)
    }

    // MARK: Reading

    /// What the translation of every mapping shares: where things are, what is written, what is left out.
    struct Context {
        var root: URL
        var options: ImportOptions
        var fixtures: [String: Data] = [:]
        var notes: [UntranslatedPart] = []
        var leftOutSecrets = false

        init(root: URL, options: ImportOptions) {
            self.root = root
            self.options = options
        }

        /// The origin WireMock's paths are joined to, without a trailing slash.
        var base: String {
            var base = options.baseURL ?? ImportOptions.defaultBaseURL
            while base.hasSuffix("/") { base.removeLast() }
            return base
        }

        mutating func note(_ place: Place, _ reason: String) {
            notes.append(UntranslatedPart(source: place.source, reason: reason))
        }

        /// Conditions of the mapping being translated that a route cannot say. Without them a route would answer
        /// requests WireMock refused (and shadow the routes after it), so such a mapping is left out whole.
        var droppedConditions: [(place: Place, reason: String)] = []

        mutating func dropCondition(_ place: Place, _ reason: String) {
            droppedConditions.append((place, reason))
        }

        /// Stores `data` as a fixture at `preferred`, or beside it when another body holds that name.
        mutating func fixture(_ data: Data, preferred: String) -> String {
            var name = preferred
            var counter = 2
            while let existing = fixtures[name], existing != data {
                let stem = (preferred as NSString).deletingPathExtension
                let ext = (preferred as NSString).pathExtension
                name = "\(stem)-\(counter)" + (ext.isEmpty ? "" : ".\(ext)")
                counter += 1
            }
            fixtures[name] = data
            return name
        }
    }

    /// A place inside a mapping file: the file (as the user reaches it, and relative to the root) and a JSON pointer.
    struct Place {
        /// The file's path for errors: the root joined with `file`.
        var path: String
        /// The file relative to the root: `mappings/todo.json`.
        var file: String
        var pointer: String

        /// `mappings/todo.json /request/headers/X-Thing`, as untranslated parts name their source.
        var source: String { pointer.isEmpty ? file : "\(file) \(pointer)" }

        func child(_ key: String) -> Place {
            Place(path: path, file: file, pointer: pointer + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1"))
        }

        func child(_ index: Int) -> Place { child(String(index)) }

        func error(_ problem: String) -> ImportError {
            ImportError(file: path, pointer: pointer.isEmpty ? nil : pointer, problem: problem)
        }
    }

    /// One stub as read, its request and response translated.
    struct Mapping {
        var place: Place
        var file: String
        var index: Int
        var priority: Int
        var name: String?
        /// The request as WireMock wrote it, to find the mappings of one state machine that match alike.
        var request: JSONValue
        /// The route's `request` keys; nil when the request cannot be matched at all (the mapping is left out).
        var matcher: [(Node, Node)]?
        var method: String?
        var path: String
        /// The response's keys; nil when there is nothing scenariod can answer with (a proxy).
        var response: [(Node, Node)]?
        var scenario: String?
        var requiredState: String?
        var newState: String?

        /// The mapping's own identity, for `after:` references: its file and place in it.
        var id: String { place.source }
    }

    /// The `.json` files under `mappings/`, subdirectories included as WireMock reads them, by relative path.
    private static func mappingFiles(in root: URL) throws(ImportError) -> [String] {
        let folder = root.appendingPathComponent("mappings")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(file: folder.path, problem: "there is no mappings directory; a WireMock root holds its stubs in mappings/*.json (and response files in __files/).")
        }
        let paths = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
        return paths.filter { $0.lowercased().hasSuffix(".json") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
            .sorted().map { "mappings/" + $0 }
    }

    /// The mappings of one file: one mapping object, or `{"mappings": [...]}` as WireMock's export writes.
    private static func read(_ file: String, context: inout Context) throws(ImportError) -> [Mapping] {
        let url = context.root.appendingPathComponent(file)
        let path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportError(file: path, problem: "the file cannot be read (\(error.localizedDescription)); check its permissions.")
        }
        let json = try ImportError.parseJSON(data, file: path, what: "a WireMock mapping")
        let place = Place(path: path, file: file, pointer: "")
        guard case .object(let top) = json else {
            throw place.error("a mapping file holds a JSON object (one mapping, or {\"mappings\": [...]}), got \(json.typeName).")
        }
        guard let list = top["mappings"] else {
            return [try mapping(top, place: place, index: 0, context: &context)]
        }
        guard case .array(let items) = list else {
            throw place.child("mappings").error("'mappings' must be a list of mapping objects, got \(list.typeName).")
        }
        for key in top.keys.sorted() where !["mappings", "meta"].contains(key) {
            context.note(place.child(key), "'\(key)' is not part of a mappings file scenariod knows; it was ignored.")
        }
        var mappings: [Mapping] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw place.child("mappings").child(index).error("a mapping must be an object with 'request' and 'response', got \(item.typeName).")
            }
            mappings.append(try mapping(members, place: place.child("mappings").child(index), index: index, context: &context))
        }
        return mappings
    }

    /// Keys of a mapping that say nothing about what it matches or answers.
    private static let bookkeepingKeys: Set<String> = ["uuid", "persistent", "metadata", "insertionIndex", "id", "name"]
    private static let stateKeys: Set<String> = ["scenarioName", "requiredScenarioState", "newScenarioState"]

    private static func mapping(_ members: [String: JSONValue], place: Place, index: Int, context: inout Context) throws(ImportError) -> Mapping {
        guard case .object(let request)? = members["request"] else {
            throw place.child("request").error("a mapping needs a 'request' object saying what it matches.")
        }
        let priority: Int
        switch members["priority"] {
        case nil: priority = 5
        case .int(let value)?: priority = value
        case let other?: throw place.child("priority").error("'priority' must be a whole number (1 is tried first), got \(other.typeName).")
        }
        func text(_ key: String) throws(ImportError) -> String? {
            switch members[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case let other?: throw place.child(key).error("'\(key)' must be text, got \(other.typeName).")
            }
        }
        var name = try text("name")
        if name == nil { name = try text("id") }
        let (scenario, required, new) = (try text("scenarioName"), try text("requiredScenarioState"), try text("newScenarioState"))
        for key in members.keys.sorted() where !bookkeepingKeys.contains(key) && !stateKeys.contains(key) && !["request", "response", "priority"].contains(key) {
            context.note(place.child(key), "'\(key)' is not translated (scenario routes have no such part); whatever it does in WireMock does not happen on replay.")
        }
        if scenario == nil, required != nil || new != nil {
            context.note(place.child(required != nil ? "requiredScenarioState" : "newScenarioState"),
                         "a scenario state without 'scenarioName' does nothing in WireMock, and was ignored.")
        }
        let matched = try translateRequest(request, place: place.child("request"), context: &context)
        var response: [(Node, Node)]? = []
        switch members["response"] {
        case nil: break
        case .object(let fields)?: response = try translateResponse(fields, place: place.child("response"), stem: stem(place), context: &context)
        case let other?: throw place.child("response").error("'response' must be an object, got \(other.typeName).")
        }
        return Mapping(place: place, file: place.file, index: index, priority: priority, name: name, request: .object(request),
                       matcher: matched.matcher, method: matched.method, path: matched.path, response: response,
                       scenario: scenario, requiredState: scenario == nil ? nil : required, newState: scenario == nil ? nil : new)
    }

    /// `todo` for `mappings/todo.json`, `all-2` for the third mapping of `mappings/all.json`: fixture names.
    private static func stem(_ place: Place) -> String {
        var stem = ((place.file as NSString).lastPathComponent as NSString).deletingPathExtension
        if let index = place.pointer.split(separator: "/").last, place.pointer.hasPrefix("/mappings/") { stem += "-\(index)" }
        return String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(40))
    }

    // MARK: Routes

    /// `get-items` for an unnamed GET of `/items`; a mapping's `name` (or `id`) lower-cased to letters, digits and
    /// dashes otherwise. Unique in the scenario.
    private static func routeNames(_ drafts: [RouteDraft]) -> [String] {
        var used = UniqueNames()
        return drafts.map { draft in
            let mapping = draft.mappings[0]
            var base = sanitized(mapping.name ?? "")
            if base.isEmpty {
                let last = (mapping.path as NSString).lastPathComponent
                base = sanitized("\(mapping.method ?? "any")-\((last as NSString).deletingPathExtension)")
                if base == sanitized(mapping.method ?? "any") { base += "-root" }
            }
            return used.claim(base)
        }
    }

    private static func sanitized(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                result.append(character)
            } else if !result.isEmpty, !result.hasSuffix("-") {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return String(result.prefix(60))
    }
}
