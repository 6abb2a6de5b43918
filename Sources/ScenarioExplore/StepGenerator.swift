import ControlAPI
import Fakes
import ScenarioFormat
import Services

/// Draws a walk's steps from its seed: the Model's actions with arguments made from its self-description, clock
/// moves, network weather (the whole network's or one route's), the key-value edits the scenario's properties
/// file allows and, where routes stream, a stream's end, in the file's weights.
struct StepGenerator {
    /// The moves a walk makes, short to long: a tick within a request's delay up to an hour of timers.
    static let clockMoves = ["100ms", "1s", "5s", "30s", "2m", "15m", "1h"]
    /// The weather a walk switches to; the scenario's own network is as likely as all the others together.
    static let weathers: [NetworkConditionsBody] = [
        NetworkConditionsBody(), NetworkConditionsBody(), NetworkConditionsBody(), NetworkConditionsBody(),
        NetworkConditionsBody(offline: true), NetworkConditionsBody(delay: "2s"), NetworkConditionsBody(fault: "timeout"),
        NetworkConditionsBody(fault: "connectionReset"),
    ]

    /// The weather of one route: failing, answering an error status, or back as the scenario has it (as likely as
    /// the others together).
    static let routeChanges: [JSONValue] = [
        [:], [:], [:], [:],
        ["response": ["fault": "timeout"]], ["response": ["fault": "connectionReset"]],
        ["response": ["status": 500]], ["response": ["status": 503]],
    ]

    let model: ModelDescription
    let settings: PropertiesFile
    /// The scenario's routes, whose weather a walk may change one at a time.
    let routes: [String]
    /// Whether any route answers with a stream or a WebSocket, which a walk may end.
    let streams: Bool
    private let random: SeededRandom

    init(model: ModelDescription, settings: PropertiesFile, routes: [String], streams: Bool = false, seed: UInt64) {
        self.model = model
        self.settings = settings
        self.routes = routes
        self.streams = streams
        random = SeededRandom(seed: seed)
    }

    /// The next step, given the state the walk stands in (its strings and numbers are likely arguments).
    func next(state: JSONValue) -> WalkStep {
        let weights = settings.weights
        let kinds: [(Int, Int)] = [
            (0, model.actions.isEmpty ? 0 : weights.action), (1, weights.clock), (2, weights.network),
            (3, settings.keyValue.isEmpty ? 0 : weights.keyValue),
            // Last, so a scenario without streams draws exactly as it did before streams existed.
            (4, streams ? weights.stream : 0),
        ]
        // Nothing drawable (a Model without actions, in a file that weighs clock and weather 0): time passes.
        guard kinds.contains(where: { $0.1 > 0 }) else { return .advanceClock("1s") }
        switch pick(weighted: kinds) {
        case 0:
            let action = model.actions[below(model.actions.count)]
            let (arguments, from) = arguments(for: action, state: state)
            return .action(name: action.name, arguments: arguments, from: from)
        case 1: return .advanceClock(Self.clockMoves[below(Self.clockMoves.count)])
        case 2:
            // Half the weather is the whole network's, half one route's, when there are routes.
            guard !routes.isEmpty, below(2) == 0 else { return .network(Self.weathers[below(Self.weathers.count)]) }
            return .route(name: routes[below(routes.count)], change: Self.routeChanges[below(Self.routeChanges.count)])
        case 4:
            // A stream's server closing it is as likely as it breaking off.
            return .stream(below(2) == 0 ? .close : .drop)
        default:
            let keys = settings.keyValue.keys.sorted()
            let key = keys[below(keys.count)]
            let values = settings.keyValue[key] ?? [.null]
            let value = values[below(values.count)]
            return value == .null ? .removeKeyValue(key) : .setKeyValue(key: key, value: value)
        }
    }

    /// Each argument from the file's examples, else by its JSON type from values in the state (with the pointer
    /// each was found at) and a few edges; an optional one left out one time in four.
    private func arguments(for action: ActionDescription, state: JSONValue) -> (JSONValue, from: [String: String]) {
        var members: [String: JSONValue] = [:]
        var from: [String: String] = [:]
        for argument in action.arguments {
            if !argument.required, below(4) == 0 { continue }
            if let examples = settings.arguments[action.name]?[argument.name] {
                members[argument.name] = examples[below(examples.count)]
                continue
            }
            let candidates = Self.candidates(ofType: argument.type, in: state)
            let picked = candidates[below(candidates.count)]
            members[argument.name] = picked.value
            if let path = picked.path { from[argument.name] = path.map { "/" + JSONValue.pointerToken($0) }.joined() }
        }
        return (.object(members), from)
    }

    /// Values of `type` found in the state (the ids and URLs an action most likely takes), each with the path of
    /// names it was first found at (a pointer's tokens, joined only for the one picked), then edge values.
    static func candidates(ofType type: String, in state: JSONValue) -> [(value: JSONValue, path: [String]?)] {
        var found: [(value: JSONValue, path: [String]?)] = []
        var seen: Set<JSONValue> = []
        // The path to the value being looked at.
        var path: [String] = []
        func collect(_ value: JSONValue) {
            guard found.count < 64 else { return }
            switch value {
            case .object(let members):
                for key in members.keys.sorted() {
                    path.append(key)
                    collect(members[key]!)
                    path.removeLast()
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    path.append(String(index))
                    collect(item)
                    path.removeLast()
                }
            case .string where type == "string", .int where type == "integer", .int where type == "number", .double where type == "number":
                if seen.insert(value).inserted { found.append((value, path)) }
            default: break
            }
        }
        if type == "string" || type == "integer" || type == "number" { collect(state) }
        let edges: [JSONValue] = switch type {
        case "string": ["", "x"]
        case "integer": [-1, 0, 1, 2, 10]
        case "number": [-1, 0, 0.5, 1, 100]
        case "boolean": [true, false]
        case "array": [[]]
        default: [[:]]
        }
        return found + edges.map { ($0, nil) }
    }

    private func below(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    private func pick(weighted choices: [(Int, Int)]) -> Int {
        let total = choices.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return 0 }
        var roll = below(total)
        for (choice, weight) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices.last!.0
    }
}
