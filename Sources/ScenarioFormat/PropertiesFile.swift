import Fakes
public import Foundation
public import Services
import Yams

/// A scenario's `properties.yaml`: what `scenarioctl explore` checks after every step of a walk, and how it walks.
///
/// ```yaml
/// fullCoverage: true            # every request the Model makes must match a route
/// always:
///   - /unreadCount >= 0
///   - name: no more items than the feed
///     that: count(/items) <= 4
/// never:
///   - /error == "The feed server answered 500 Internal Server Error."
/// eventually:
///   - after: reload             # an action
///     within: 30s               # of virtual time
///     that: /isLoading == false
/// walk:
///   weights: { action: 5, clock: 2, network: 1, keyValue: 1, stream: 1 }
///   arguments:                  # examples an action's argument is drawn from
///     setIsRead: { url: ["https://example.com/1"], value: [true, false] }
///   keyValue:                   # keys a walk may edit, and the values it may write (null removes the key)
///     readItems: [[], null]
/// ```
public struct PropertiesFile: Sendable, Hashable {
    /// The name a scenario's properties file has, beside its `scenario.yaml`.
    public static let fileName = "properties.yaml"

    /// One check.
    public struct Property: Sendable, Hashable {
        /// When the condition must hold.
        public enum Kind: Sendable, Hashable {
            /// After every step.
            case always
            /// After no step.
            case never
            /// At some step, or at the deadline, within `within` of virtual time after each `after` action.
            case eventually(after: String, within: Duration)
        }

        /// Its name in reports: given, or the condition's text.
        public var name: String
        /// When it must hold.
        public var kind: Kind
        /// What must hold.
        public var condition: PropertyCondition
        /// `file:line:column` of its condition.
        public var place: String
    }

    /// How often each kind of step is drawn, relative to the others.
    public struct Weights: Sendable, Hashable, Codable {
        /// An action of the Model.
        public var action: Int
        /// A move of the clock, short or long.
        public var clock: Int
        /// A change of network weather: offline, slow, failing, back to the scenario's network.
        public var network: Int
        /// A key-value edit, among those `walk.keyValue` allows (none when it allows none).
        public var keyValue: Int
        /// The server of the oldest open stream or WebSocket closing it, or it breaking off (none in a scenario
        /// whose routes never stream).
        public var stream: Int

        /// The weights of every walk unless a scenario says: actions most, then clock moves, then weather, edits and
        /// streams' ends.
        public static let standard = Weights(action: 5, clock: 2, network: 1, keyValue: 1, stream: 1)

        /// Weights as given.
        public init(action: Int, clock: Int, network: Int, keyValue: Int, stream: Int = 1) {
            self.action = action
            self.clock = clock
            self.network = network
            self.keyValue = keyValue
            self.stream = stream
        }
    }

    /// The checks, in file order.
    public var properties: [Property] = []
    /// Whether every request must match a route: a built-in check that no request went unanswered.
    public var fullCoverage = false
    /// How often each kind of step is drawn.
    public var weights = Weights.standard
    /// Examples an action's argument is drawn from, by action and argument name.
    public var arguments: [String: [String: [JSONValue]]] = [:]
    /// Keys a walk may edit and the values it may write; `null` removes the key.
    public var keyValue: [String: [JSONValue]] = [:]

    /// No checks and the standard weights: what a scenario without a properties file is explored with.
    public init() {}

    /// Reads a properties file. With `model`, action and argument names are checked against it.
    /// - Throws: every problem found, each at its place (`file:line:column: message`).
    public static func load(from url: URL, model: ModelDescription? = nil) throws(PropertiesFileError) -> PropertiesFile {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw PropertiesFileError(problems: [ScenarioProblem(file: url.path, message: "cannot read the properties file: \(error.localizedDescription)")])
        }
        return try parse(text, file: url.path, model: model)
    }

    /// Reads the text of a properties file; `file` names it in problems.
    /// - Throws: every problem found, each at its place.
    public static func parse(_ text: String, file: String, model: ModelDescription? = nil) throws(PropertiesFileError) -> PropertiesFile {
        var parser = PropertiesFileParser(reader: NodeReader(file: file), model: model)
        let parsed = parser.parse(text)
        guard parser.reader.problems.isEmpty else { throw PropertiesFileError(problems: parser.reader.problems.inFileOrder) }
        return parsed
    }
}

/// Everything wrong with a properties file.
public struct PropertiesFileError: Error, Sendable, CustomStringConvertible {
    /// Each problem, in file order.
    public var problems: [ScenarioProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
    /// How many problems, then each: what `scenarioctl explore` and the daemon's explorations say of the file.
    public var summary: String { "the properties file has \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n\(self)" }
}

/// Reads a properties file's YAML into a ``PropertiesFile``, recording every problem with its place.
private struct PropertiesFileParser {
    var reader: NodeReader
    let model: ModelDescription?

    mutating func parse(_ text: String) -> PropertiesFile {
        var file = PropertiesFile()
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text, .basic, .default, .utf8) else { return file }
            root = ImplicitTags.resolve(node)
        } catch let error as YamlError {
            reader.report("not valid YAML: \(error)", at: nil)
            return file
        } catch {
            reader.report("not valid YAML: \(error)", at: nil)
            return file
        }
        guard let top = reader.mapping(root, at: "the properties file",
                                       allowed: ["fullCoverage", "always", "never", "eventually", "walk"]) else { return file }
        if let node = top["fullCoverage"] { file.fullCoverage = reader.bool(node, at: "fullCoverage") ?? false }
        for key in ["always", "never", "eventually"] {
            guard let node = top[key], let items = reader.sequence(node, at: key, of: "properties") else { continue }
            for (index, item) in items.enumerated() {
                if let property = property(item, kind: key, at: "\(key)[\(index)]") { file.properties.append(property) }
            }
        }
        if let node = top["walk"] { walk(node, into: &file) }
        return file
    }

    /// `- CONDITION`, or a mapping with `that` (and `name`; `after` and `within` for `eventually`).
    mutating func property(_ node: Node, kind: String, at path: String) -> PropertiesFile.Property? {
        let eventually = kind == "eventually"
        var name: String?
        let conditionNode: Node
        var resolvedKind = PropertiesFile.Property.Kind.always
        if !eventually, node.scalar != nil {
            conditionNode = node
        } else {
            let allowed = eventually ? ["name", "that", "after", "within"] : ["name", "that"]
            let required = eventually ? ["that", "after", "within"] : ["that"]
            guard let keys = reader.mapping(node, at: path, allowed: allowed, required: required), let that = keys["that"] else { return nil }
            conditionNode = that
            name = keys["name"].flatMap { reader.string($0, at: "\(path).name") }
            if eventually {
                var after = keys["after"].flatMap { reader.string($0, at: "\(path).after") }
                if let model, let afterNode = keys["after"], let name = after, !model.actions.contains(where: { $0.name == name }) {
                    let names = model.actions.map(\.name)
                    reader.report("\(path).after: '\(name)' is not an action of \(model.name).\(Suggestion.didYouMean(name, among: names))"
                        + " Its actions: \(names.joined(separator: ", ")).", at: afterNode)
                    after = nil
                }
                let within = keys["within"].flatMap { reader.duration($0, at: "\(path).within") }
                guard let after, let within else { return nil }
                resolvedKind = .eventually(after: after, within: within)
            }
        }
        if kind == "never" { resolvedKind = .never }
        guard let text = reader.string(conditionNode, at: "\(path)\(node.scalar != nil ? "" : ".that")") else { return nil }
        do {
            let condition = try PropertyCondition(parsing: text)
            let place = "\(reader.file):\(conditionNode.mark?.line ?? 0):\(conditionNode.mark?.column ?? 0)"
            return PropertiesFile.Property(name: name ?? text, kind: resolvedKind, condition: condition, place: place)
        } catch {
            // A plain scalar on one line starts at its mark: the problem is then placed at its very character.
            if case .scalar(let scalar) = conditionNode, scalar.style == .plain, !text.contains("\n"), let mark = conditionNode.mark {
                reader.report("\(path): \(error.message).", line: mark.line, column: mark.column + error.offset)
            } else {
                reader.report("\(path): \(error.description).", at: conditionNode)
            }
            return nil
        }
    }

    /// Why `value` cannot be the argument `declared` (its JSON type, or null for a required one); nil when it can.
    static func mismatch(_ value: JSONValue, for declared: ArgumentDescription) -> String? {
        let fits: Bool = switch (declared.type, value) {
        case (_, .null): !declared.required
        case ("string", .string), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
             ("array", .array), ("object", .object): true
        // 4.0 is an integer, as JSON Schema counts it.
        case ("integer", .double(let number)): number.rounded() == number && abs(number) < 9.0e15
        case ("string", _), ("boolean", _), ("integer", _), ("number", _), ("array", _), ("object", _): false
        // A type this check does not know: the daemon's decoding will say.
        default: true
        }
        guard !fits else { return nil }
        if case .null = value { return "null, but \(declared.name) is required; give \(article(declared.type)) \(declared.type)." }
        return "\(String(decoding: value.jsonData, as: UTF8.self)) is \(value.typeName), but \(declared.name) takes \(article(declared.type)) \(declared.type)."
    }

    private static func article(_ type: String) -> String { type.first.map { "aeiou".contains($0) } == true ? "an" : "a" }

    /// `walk:` — weights, argument examples and key-value edits.
    mutating func walk(_ node: Node, into file: inout PropertiesFile) {
        guard let keys = reader.mapping(node, at: "walk", allowed: ["weights", "arguments", "keyValue"]) else { return }
        if let node = keys["weights"],
           let weights = reader.mapping(node, at: "walk.weights", allowed: ["action", "clock", "network", "keyValue", "stream"]) {
            func weight(_ key: String, _ standard: Int) -> Int {
                weights[key].flatMap { reader.int($0, at: "walk.weights.\(key)", in: 0...1_000) } ?? standard
            }
            let standard = PropertiesFile.Weights.standard
            file.weights = .init(action: weight("action", standard.action), clock: weight("clock", standard.clock),
                                 network: weight("network", standard.network), keyValue: weight("keyValue", standard.keyValue),
                                 stream: weight("stream", standard.stream))
            // A stream's end is drawn only where routes stream: it counts here only when written.
            let stream = weights["stream"] == nil ? 0 : file.weights.stream
            if file.weights.action + file.weights.clock + file.weights.network + file.weights.keyValue + stream == 0 {
                reader.report("walk.weights makes every kind of step 0; give at least one a weight above 0.", at: node)
            }
        }
        if let node = keys["arguments"], case .mapping(let actions) = node {
            for (actionNode, argumentsNode) in actions {
                guard let action = reader.string(actionNode, at: "walk.arguments") else { continue }
                let description = model?.actions.first { $0.name == action }
                if let model, description == nil {
                    let names = model.actions.map(\.name)
                    reader.report("walk.arguments: '\(action)' is not an action of \(model.name).\(Suggestion.didYouMean(action, among: names))"
                        + " Its actions: \(names.joined(separator: ", ")).", at: actionNode)
                    continue
                }
                let allowed = description?.arguments.map(\.name)
                guard case .mapping(let arguments) = argumentsNode else {
                    reader.report("walk.arguments.\(action) must be a mapping of argument names to lists of examples, got \(reader.describe(argumentsNode)).", at: argumentsNode)
                    continue
                }
                for (argumentNode, examplesNode) in arguments {
                    guard let argument = reader.string(argumentNode, at: "walk.arguments.\(action)") else { continue }
                    if let allowed, !allowed.contains(argument) {
                        reader.report("walk.arguments.\(action): '\(argument)' is not an argument of \(action).\(Suggestion.didYouMean(argument, among: allowed))"
                            + " Its arguments: \(allowed.isEmpty ? "none" : allowed.joined(separator: ", ")).", at: argumentNode)
                        continue
                    }
                    let place = "walk.arguments.\(action).\(argument)"
                    guard let examples = reader.sequence(examplesNode, at: place, of: "example values"), !examples.isEmpty else { continue }
                    let declared = description?.arguments.first { $0.name == argument }
                    var values: [JSONValue] = []
                    for (index, example) in examples.enumerated() {
                        let value = reader.json(example)
                        // An example the Model would refuse makes every step that draws it a refused step.
                        if let declared, let problem = Self.mismatch(value, for: declared) {
                            reader.report("\(place)[\(index)]: \(problem)", at: example)
                            continue
                        }
                        values.append(value)
                    }
                    if !values.isEmpty { file.arguments[action, default: [:]][argument] = values }
                }
            }
        } else if let node = keys["arguments"] {
            reader.report("walk.arguments must be a mapping of action names, got \(reader.describe(node)).", at: node)
        }
        if let node = keys["keyValue"], case .mapping(let edits) = node {
            for (keyNode, valuesNode) in edits {
                guard let key = reader.string(keyNode, at: "walk.keyValue"),
                      let values = reader.sequence(valuesNode, at: "walk.keyValue.\(key)", of: "values (null removes the key)") else { continue }
                if values.isEmpty { reader.report("walk.keyValue.\(key) lists no values; give at least one (null removes the key).", at: valuesNode) }
                if let model, !model.keys.contains(where: { $0.key == key }) {
                    let keys = model.keys.map(\.key)
                    reader.report("walk.keyValue: '\(key)' is not a key \(model.name) declares, so editing it changes nothing the Model reads."
                        + Suggestion.didYouMean(key, among: keys)
                        + (keys.isEmpty ? " \(model.name) declares no keys (keyValueKeys)." : " Its keys: \(keys.joined(separator: ", ")).")
                        + " Declare it in \(model.name).keyValueKeys if the Model reads it.", at: keyNode)
                }
                file.keyValue[key] = values.map(reader.json)
            }
        } else if let node = keys["keyValue"] {
            reader.report("walk.keyValue must be a mapping of keys to lists of values, got \(reader.describe(node)).", at: node)
        }
    }
}
