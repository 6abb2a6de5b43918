public import ControlAPI
public import Services

/// One step of a walk: what a client does to a session between two checks of its properties.
///
/// A walk file writes each as a one-key object: `{"action": {"name": "setIsRead", "arguments": {…}}}` (with
/// `"from": {"url": "/items/0/url"}` for an argument taken from the state: where it was, which a replay reads again),
/// `{"advanceClock": "15m"}`, `{"network": {"offline": true}}` (`{}`: the scenario's own network),
/// `{"route": {"name": "feed", "response": {"fault": "timeout"}}}` (no `response`: the route as the scenario has it),
/// `{"setKeyValue": {"key": "readItems", "value": []}}`, `{"removeKeyValue": "readItems"}`, `{"stream": "close"}`.
public enum WalkStep: Sendable, Hashable, Codable {
    /// An action of the Model, with its arguments; `from` names, for an argument taken from the Model's state, the
    /// JSON pointer it was read at, so a replay takes that argument from the state there even when an earlier step
    /// has gone (a shrink) and the value there is another.
    case action(name: String, arguments: JSONValue, from: [String: String] = [:])
    /// A move of the session's clock (`250ms`, `15m`).
    case advanceClock(String)
    /// Network weather: offline, a fault for every request, a delay added to every answer, or (all nil) the
    /// scenario's own network.
    case network(NetworkConditionsBody)
    /// One route's weather: a change to the route the session was created with (`{"response": {"fault":
    /// "timeout"}}`, `{"response": {"status": 503}}`), or none (`{}`), which puts the route back as it was.
    case route(name: String, change: JSONValue)
    /// A key-value edit.
    case setKeyValue(key: String, value: JSONValue)
    /// A key removed from the store.
    case removeKeyValue(String)
    /// The oldest open scripted stream or WebSocket ends now: its server closes it, or it breaks off with
    /// `connectionReset`. Nothing happens when none is open.
    case stream(StreamEnd)

    /// How a ``stream(_:)`` step ends a stream.
    public enum StreamEnd: String, Sendable, Hashable, Codable, CaseIterable {
        /// Its server closes it (a WebSocket with code 1000).
        case close
        /// It breaks off: the Model's next read throws `connectionReset`.
        case drop
    }

    /// The step's kind as the summary counts it: `action NAME`, `clock`, `network`, `keyValue`.
    public var kind: String {
        switch self {
        case .action(let name, _, _): "action \(name)"
        case .advanceClock: "clock"
        case .network: "network"
        case .route: "route"
        case .setKeyValue, .removeKeyValue: "keyValue"
        case .stream: "stream"
        }
    }

    /// One line for people: `setIsRead {"url":"…","value":true}`, `advance the clock by 15m`, `go offline`.
    public var summary: String {
        switch self {
        case .action(let name, let arguments, let from):
            if case .object(let members) = arguments, members.isEmpty { return name }
            let sources = from.keys.sorted().map { "\($0) from the state's \(from[$0]!)" }
            return "\(name) \(String(decoding: arguments.jsonData, as: UTF8.self))" + (sources.isEmpty ? "" : " (\(sources.joined(separator: ", ")))")
        case .advanceClock(let duration): return "advance the clock by \(duration)"
        case .network(let weather): return weather.summary
        case .route(let name, let change):
            if let fault = change.value(at: "/response/fault"), case .string(let text) = fault { return "route \(name) fails with \(text)" }
            if let status = change.value(at: "/response/status") { return "route \(name) answers \(String(decoding: status.jsonData, as: UTF8.self))" }
            if change == .object([:]) { return "route \(name) as the scenario has it" }
            return "change route \(name): \(String(decoding: change.jsonData, as: UTF8.self))"
        case .setKeyValue(let key, let value): return "set key \(key) to \(String(decoding: value.jsonData, as: UTF8.self))"
        case .removeKeyValue(let key): return "remove key \(key)"
        case .stream(.close): return "the oldest open stream's server closes it"
        case .stream(.drop): return "the oldest open stream breaks off"
        }
    }

    private enum Key: String, CodingKey {
        case action, advanceClock, network, route, setKeyValue, removeKeyValue, stream
    }

    private struct ActionBody: Codable {
        var name: String
        var arguments: JSONValue?
        var from: [String: String]?
    }

    /// A route step: its name and the change, as `PUT …/routes/NAME` takes it (without `extends`).
    private struct RouteBody: Codable {
        var name: String
        var response: JSONValue?
    }

    private struct KeyValueBody: Codable {
        var key: String
        var value: JSONValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "a step is an object with exactly one of action, advanceClock, network, route, setKeyValue, removeKeyValue, stream"))
        }
        switch key {
        case .action:
            let body = try container.decode(ActionBody.self, forKey: key)
            self = .action(name: body.name, arguments: body.arguments ?? [:], from: body.from ?? [:])
        case .advanceClock:
            let duration = try container.decode(String.self, forKey: key)
            guard DurationText.parse(duration) != nil else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'\(duration)' is not a duration such as 250ms or 15m")
            }
            self = .advanceClock(duration)
        case .network: self = .network(try container.decode(NetworkConditionsBody.self, forKey: key))
        case .route:
            let body = try container.decode(RouteBody.self, forKey: key)
            self = .route(name: body.name, change: body.response.map { ["response": $0] } ?? [:])
        case .setKeyValue:
            let body = try container.decode(KeyValueBody.self, forKey: key)
            self = .setKeyValue(key: body.key, value: body.value)
        case .removeKeyValue: self = .removeKeyValue(try container.decode(String.self, forKey: key))
        case .stream: self = .stream(try container.decode(StreamEnd.self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .action(let name, let arguments, let from):
            let none = arguments == .object([:])
            try container.encode(ActionBody(name: name, arguments: none ? nil : arguments, from: from.isEmpty ? nil : from), forKey: .action)
        case .advanceClock(let duration): try container.encode(duration, forKey: .advanceClock)
        case .network(let weather): try container.encode(weather, forKey: .network)
        case .route(let name, let change): try container.encode(RouteBody(name: name, response: change.value(at: "/response")), forKey: .route)
        case .setKeyValue(let key, let value): try container.encode(KeyValueBody(key: key, value: value), forKey: .setKeyValue)
        case .removeKeyValue(let key): try container.encode(key, forKey: .removeKeyValue)
        case .stream(let end): try container.encode(end, forKey: .stream)
        }
    }
}

extension WalkStep {
    /// The step as it is taken in `state`: each argument with a `from` pointer read there again (kept as written when
    /// the state has nothing there).
    func taken(in state: JSONValue) -> WalkStep {
        guard case .action(let name, .object(var arguments), let from) = self, !from.isEmpty else { return self }
        for (argument, pointer) in from {
            if let value = state.value(at: pointer) { arguments[argument] = value }
        }
        return .action(name: name, arguments: .object(arguments), from: from)
    }
}

extension NetworkConditionsBody {
    /// `go offline`, `fail every request with timeout`, `slow every answer by 2s`, `back to the scenario's network`.
    var summary: String {
        if offline == true { return "go offline" }
        if let fault { return "fail every request with \(fault)" }
        if let delay { return "slow every answer by \(delay)" }
        return "back to the scenario's network"
    }
}
