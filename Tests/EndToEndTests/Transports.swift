import ControlAPI
import Foundation
import ScenarioClient
import Services

/// A step of a scripted drive of a session.
enum Step: Sendable {
    case action(String, [String: JSONValue])
    case advance(String)
}

/// One way of talking to the daemon: ControlClient, scenarioctl or curl. Each drives the same script and
/// returns the Model's state, so the three can be compared with each other and with the expectation.
protocol Transport: Sendable {
    var name: String { get }
    func drive(scenario: String, session: String, steps: [Step], socket: String) async throws -> JSONValue
}

struct ClientTransport: Transport {
    let name = "ScenarioClient"

    func drive(scenario: String, session: String, steps: [Step], socket: String) async throws -> JSONValue {
        let client = ControlClient(socketPath: socket)
        _ = try await client.createSession(scenario: scenario, id: session)
        for step in steps {
            switch step {
            case .action(let name, let arguments): _ = try await client.perform(name, arguments: .object(arguments), session: session)
            case .advance(let duration): _ = try await client.advanceClock(by: duration, session: session)
            }
        }
        return try await client.state(session: session)
    }
}

struct ControlToolTransport: Transport {
    let name = "scenarioctl"

    func drive(scenario: String, session: String, steps: [Step], socket: String) async throws -> JSONValue {
        try await ctl(["session", "new", scenario, "--id", session], socket)
        for step in steps {
            switch step {
            case .action(let name, let arguments):
                let pairs = arguments.sorted { $0.key < $1.key }.map { key, value -> String in
                    if case .string(let text) = value { return "\(key)=\(text)" }
                    return "\(key)=\(String(decoding: value.jsonData, as: UTF8.self))"
                }
                try await ctl(["do", name] + pairs + ["--session", session], socket)
            case .advance(let duration):
                try await ctl(["clock", "advance", duration, "--session", session], socket)
            }
        }
        return try JSONValue(json: Data(try await ctl(["state", "--session", session], socket).utf8))
    }

    @discardableResult
    func ctl(_ arguments: [String], _ socket: String) async throws -> String {
        let result = try await ProcessResult.run(Binaries.scenarioctl, arguments + ["--socket", socket])
        guard result.status == 0 else {
            throw DaemonError(message: "scenarioctl \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }
}

struct CurlTransport: Transport {
    let name = "curl"

    func drive(scenario: String, session: String, steps: [Step], socket: String) async throws -> JSONValue {
        try await curl("POST", "/v1/sessions", body: ["scenario": .string(scenario), "id": .string(session)], socket: socket, expect: 201)
        for step in steps {
            switch step {
            case .action(let name, let arguments):
                try await curl("POST", "/v1/sessions/\(session)/actions/\(name)", body: .object(arguments), socket: socket)
            case .advance(let duration):
                try await curl("POST", "/v1/sessions/\(session)/clock/advance", body: ["by": .string(duration)], socket: socket)
            }
        }
        return try await curl("GET", "/v1/sessions/\(session)/state", socket: socket)
    }

    /// One request with curl; returns the JSON body and checks the status.
    @discardableResult
    static func request(_ method: String, _ path: String, body: String? = nil, contentType: String = "application/json",
                        socket: String) async throws -> (status: Int, body: String, contentType: String) {
        var arguments = ["--silent", "--show-error", "--unix-socket", socket, "-X", method,
                         "-w", "\n%{http_code} %{content_type}", "http://localhost\(path)"]
        if let body { arguments += ["-H", "Content-Type: \(contentType)", "--data-binary", body] }
        let result = try await ProcessResult.run("/usr/bin/curl", arguments)
        guard result.status == 0, let split = result.stdout.lastIndex(of: "\n") else {
            throw DaemonError(message: "curl \(method) \(path) failed (\(result.status)): \(result.stderr)")
        }
        let trailer = result.stdout[result.stdout.index(after: split)...].split(separator: " ", maxSplits: 1)
        return (Int(trailer.first ?? "") ?? 0, String(result.stdout[..<split]), trailer.count > 1 ? String(trailer[1]) : "")
    }

    @discardableResult
    private func curl(_ method: String, _ path: String, body: JSONValue? = nil, socket: String, expect: Int = 200) async throws -> JSONValue {
        let response = try await Self.request(method, path, body: body.map { String(decoding: $0.jsonData, as: UTF8.self) }, socket: socket)
        guard response.status == expect else {
            throw DaemonError(message: "curl \(method) \(path) answered \(response.status): \(response.body)")
        }
        return try JSONValue(json: Data(response.body.utf8))
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var count: Int? {
        if case .array(let array) = self { return array.count }
        return nil
    }

    /// The last element of an array.
    var last: JSONValue? {
        if case .array(let array) = self { return array.last }
        return nil
    }
}
