public import Fakes
import Foundation
public import Services

/// Changes a test makes to a scenario for one session, without a file: extra or replacement routes, key-value
/// seed, clock start, randomness, a team's service sections. They are a scenario file's sections given as JSON, and
/// they are read exactly as a file that `extends` the scenario would be (the same checks and messages, a route
/// replacing the parent's route of the same name, seeds merging by key, fixture paths relative to the scenario's
/// directory), with each problem placed by its JSON pointer instead of file:line.
public enum ScenarioOverrides {
    /// Where problems say they are: in the request's overrides, at a JSON pointer.
    public static let place = "overrides"

    /// The keys a scenario has that overrides may not change: a session of another scenario does that.
    static let fixedKeys = ["description", "model", "extends"]

    /// Every problem a session's overrides have, each `/json/pointer: message`.
    public struct Problems: Error, Sendable, CustomStringConvertible {
        /// Each problem, in the order the overrides' JSON has them; its place is ``ScenarioOverrides/place``.
        public var list: [ScenarioProblem]
        public var description: String {
            list.map { $0.message.hasSuffix(".") ? String($0.message.dropLast()) : $0.message }.joined(separator: "; ")
        }
    }

    /// `parent` with `overrides` applied.
    /// - Throws: ``Problems``, every problem they have.
    public static func apply(_ overrides: JSONValue, to parent: Scenario, models: [String],
                             services: [ServiceDefinition] = []) throws(Problems) -> Scenario {
        guard case .object(let fields) = overrides else {
            throw Problems(list: [problem("", "overrides must be an object of scenario sections (clock, keyValue, random, network…), got \(overrides.typeName).")])
        }
        let fixed = fixedKeys.filter { fields[$0] != nil }.map {
            problem("/\($0)", "overrides cannot change '\($0)'; start a session of another scenario instead.")
        }
        guard fixed.isEmpty else { throw Problems(list: fixed) }
        var document = fields
        document["description"] = .string(parent.description)
        document["extends"] = .string(parent.name)
        let lined = LinedJSON(.object(document))
        var parser = ScenarioFileParser(name: parent.name, directory: parent.directory, path: place,
                                        fixtures: FixtureReader(), services: services)
        parser.fixtureDirectories = parent.fixtureDirectories
        let (file, problems) = parser.parse(lined.text)
        guard problems.isEmpty else { throw Problems(list: problems.inFileOrder.map(lined.placing)) }
        switch ExtendsResolver.extend(parent, with: file, models: models, services: services) {
        case .success(var scenario):
            // Routes the overrides wrote or changed; the journal marks what they answer.
            let given = Set(file.routes.map(\.name) + file.routePatches.map(\.name))
            for index in scenario.routes.indices where given.contains(scenario.routes[index].name) {
                scenario.routes[index].isOverride = true
            }
            return scenario
        case .failure(let found): throw Problems(list: found.list.inFileOrder.map(lined.placing))
        }
    }

    /// A route for a running session of `scenario`, named `name`, read as a route of `network.routes` is.
    /// - Throws: ``Problems``, placed at the route's own JSON pointers (`/response/status`).
    public static func route(_ json: JSONValue, named name: String, in scenario: Scenario, models: [String],
                             services: [ServiceDefinition] = []) throws(Problems) -> Route {
        guard case .object(var fields) = json else {
            throw Problems(list: [problem("", "a route must be an object with request and response (or responses, or live: true), got \(json.typeName).")])
        }
        if let given = fields["name"], given != .string(name) {
            throw Problems(list: [problem("/name", "the route's name must be '\(name)', the name in the path, or be left out.")])
        }
        if let given = fields["extends"], given != .string(name) {
            throw Problems(list: [problem("/extends", "a route set by name changes the route of that name; 'extends' must be '\(name)', the name in the path, or be left out.")])
        }
        fields["name"] = .string(name)
        // Read as the only route of a scenario's network, then its problems are moved to the route's own pointers.
        let overrides = JSONValue.object(["network": .object(["routes": .array([.object(fields)])])])
        let resolved: Scenario
        do {
            resolved = try apply(overrides, to: scenario, models: models, services: services)
        } catch {
            throw Problems(list: error.list.map { $0.movingPointer(from: "/network/routes/0", to: "") })
        }
        // By name: a whole route comes first, a change to the scenario's route (`extends`) stays in its place.
        // LinedJSON writes every name so that YAML reads it back unchanged; should one still come back changed, the
        // request is refused rather than the daemon stopped.
        guard let route = resolved.routes.first(where: { $0.name == name }) else {
            throw Problems(list: [problem("/name", "the route's name '\(name)' did not read back as itself; name it with printable characters.")])
        }
        return route
    }

    static func problem(_ pointer: String, _ message: String) -> ScenarioProblem {
        ScenarioProblem(file: place, message: "\(pointer.isEmpty ? "/" : pointer): \(message)")
    }
}

extension ScenarioProblem {
    /// A problem of an overrides document moved under another JSON pointer prefix.
    func movingPointer(from old: String, to new: String) -> ScenarioProblem {
        guard message.hasPrefix(old) else { return self }
        var moved = self
        let rest = message.dropFirst(old.count)
        moved.message = (new.isEmpty && rest.hasPrefix(":") ? "/" : new) + rest
        return moved
    }
}

/// JSON written one member per line, remembering each line's JSON pointer, so a problem the YAML parser places at a
/// line can be placed at a pointer instead. (JSON is YAML, so the scenario parser reads it as it reads files.)
struct LinedJSON {
    private(set) var text = ""
    private var pointers: [String] = []

    init(_ value: JSONValue) {
        write(value, key: nil, pointer: "", last: true)
    }

    /// The problem with its line and column replaced by the pointer of that line.
    func placing(_ problem: ScenarioProblem) -> ScenarioProblem {
        guard let line = problem.line, pointers.indices.contains(line - 1) else {
            return ScenarioProblem(file: ScenarioOverrides.place, message: problem.message)
        }
        let pointer = pointers[line - 1]
        return ScenarioProblem(file: ScenarioOverrides.place, message: "\(pointer.isEmpty ? "/" : pointer): \(problem.message)")
    }

    private mutating func line(_ content: String, _ pointer: String) {
        text += content + "\n"
        pointers.append(pointer)
    }

    private mutating func write(_ value: JSONValue, key: String?, pointer: String, last: Bool) {
        let prefix = key.map { Self.quoted($0) + ": " } ?? ""
        let comma = last ? "" : ","
        switch value {
        case .object(let members):
            line(prefix + "{", pointer)
            let keys = members.keys.sorted()
            for (index, member) in keys.enumerated() {
                write(members[member]!, key: member, pointer: pointer + "/" + JSONValue.pointerToken(member), last: index == keys.count - 1)
            }
            line("}" + comma, pointer)
        case .array(let elements):
            line(prefix + "[", pointer)
            for (index, element) in elements.enumerated() {
                write(element, key: nil, pointer: pointer + "/\(index)", last: index == elements.count - 1)
            }
            line("]" + comma, pointer)
        default:
            line(prefix + Self.yamlSafe(value) + comma, pointer)
        }
    }

    private static func quoted(_ text: String) -> String { yamlSafe(.string(text)) }

    /// A scalar as JSON that YAML reads back as the same value. JSON leaves some characters bare in a string that YAML
    /// does not read as themselves: U+0085, U+2028 and U+2029 are line breaks to YAML even inside quotes (a route
    /// name holding one came back another name), and DEL, the other C1 controls, U+FFFE and U+FFFF are outside the
    /// characters it reads at all. They are written as JSON's `\uXXXX` escapes, which YAML's double quotes read too.
    private static func yamlSafe(_ value: JSONValue) -> String {
        let json = String(decoding: value.jsonData, as: UTF8.self)
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var escaped = ""
        for scalar in json.unicodeScalars {
            guard needsEscape(scalar) else {
                escaped.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

}
