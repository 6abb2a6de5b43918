@testable import Fakes
import Foundation
import HTTPTypes
import ScenarioFormat
import Services
import Testing

/// A gRPC route's problems are found at load, each at its line with what to write instead.
@Suite struct GRPCLoadTests {
    static func problems(_ response: String, url: String = "https://vehicles.example/transit.Vehicles/Follow") throws -> [String] {
        let yaml = scenario(routes: """
            - name: follow
              request: {url: \(url)}
              response:
            \(response.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """)
        guard case .failure(let problems) = try load(yaml) else { return [] }
        return problems.all.map { "\($0.line ?? 0): \($0.message)" }
    }

    @Test func aMessageIsCheckedAgainstItsTypeWithTheFieldMeant() throws {
        let problems = try Self.problems("""
            grpc:
              descriptors: transit.pb
              messages:
                - {at: +1s, value: {vehicle: bus-1, latt: 59.9}}
                - {at: +2s, value: {vehicle: bus-1, lat: north}}
                - {at: +3s, value: {vehicle: bus-1, occupancy: FULLY}}
                - {at: +4s, value: {vehicle: bus-1, observedAtMs: "soon"}}
            """)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("11: ") && $0.contains("messages[0].value/latt is not a field of transit.Position. Did you mean 'lat'?") })
        #expect(problems.contains { $0.contains("messages[1].value/lat must be a number (double); got \"north\"") })
        #expect(problems.contains { $0.contains("messages[2].value/occupancy is 'FULLY', which transit.Occupancy does not name. Did you mean 'FULL'?") })
        #expect(problems.contains { $0.contains("messages[3].value/observedAtMs must be an integer") })
    }

    @Test func theMethodTheStatusAndTheShapeOfTheAnswerAreChecked() throws {
        let method = try Self.problems("grpc: {descriptors: transit.pb, messages: [{value: {}}]}", url: "https://vehicles.example/transit.Vehicles/Folow")
        #expect(method.first?.contains("has no method /transit.Vehicles/Folow. Did you mean '/transit.Vehicles/Follow'? Its methods: /transit.Vehicles/Follow, /transit.Vehicles/Locate") == true, "\(method)")
        let code = try Self.problems("grpc: {descriptors: transit.pb, status: {code: NOT_FOUNDD}}")
        #expect(code.count == 1 && code[0].contains("status.code must be a gRPC status code, by name or number 0-16, got 'NOT_FOUNDD'. Did you mean 'NOT_FOUND'? The codes: OK, CANCELLED"), "\(code)")
        #expect(try Self.problems("grpc: {descriptors: transit.pb, status: {code: 99}}").count == 1)
        let unary = try Self.problems("grpc: {descriptors: transit.pb}", url: "https://vehicles.example/transit.Vehicles/Locate")
        #expect(unary.first?.contains("/transit.Vehicles/Locate answers one message and this answer has 0") == true, "\(unary)")
        let replies = try Self.problems("grpc: {descriptors: transit.pb, replies: [{when: {bodyFields: {/stop: a}}, send: []}]}")
        #expect(replies.first?.contains("replies answer a client's later messages, and /transit.Vehicles/Follow takes one request message") == true, "\(replies)")
        let more = try Self.problems("grpc: {descriptors: transit.pb, messages: [{value: {}}], replies: [{when: {bodyFields: {/stop: a}}, send: [{value: {}}]}]}",
                                     url: "https://vehicles.example/transit.Vehicles/Report")
        #expect(more.first?.contains("replies would send more messages, and /transit.Vehicles/Report answers one") == true, "\(more)")
        let late = try Self.problems("grpc: {descriptors: transit.pb, messages: [{at: +3s, value: {}}], status: {code: OK, at: +1s}}")
        #expect(late.first?.contains("status.at is 1s, before the last message's 3s") == true, "\(late)")
    }

    @Test func aDescriptorSetThatIsNotOneSaysHowToWriteOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-bad-\(UUID().uuidString)/transit")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(scenario(routes: """
            - name: follow
              request: {url: https://vehicles.example/transit.Vehicles/Follow}
              response: {grpc: {descriptors: transit.proto}}
            """).utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
        try Data("syntax = \"proto3\";\nmessage A { string b = 1; }\n".utf8).write(to: directory.appendingPathComponent("transit.proto"))
        let catalog = ScenarioCatalog.load(from: [directory.deletingLastPathComponent()], models: ["TripPlanner"])
        let message = try #require(catalog.problems["transit"]?.first?.message)
        #expect(message.contains("'transit.proto' is not a descriptor set") && message.contains("protoc --descriptor_set_out=FILE --include_imports"), "\(message)")
    }
}

/// A child scenario's route that extends a gRPC route and writes its own `grpc` answers with it.
@Suite struct GRPCPatchTests {
    /// A root with `transit` (its `locate` route answering from the descriptor set) and an empty `transit-down`
    /// directory beside it, both holding the set: the child's scenario.yaml is each test's own.
    static func parentBesideChild() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-patch-\(UUID().uuidString)")
        for name in ["transit", "transit-down"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: transitDescriptors, to: root.appendingPathComponent("\(name)/transit.pb"))
        }
        try Data(scenario(routes: """
            - name: locate
              request: {url: https://vehicles.example/transit.Vehicles/Locate}
              response: {grpc: {descriptors: transit.pb, messages: [{value: {vehicle: parent}}]}}
            """).utf8).write(to: root.appendingPathComponent("transit/scenario.yaml"))
        return root
    }

    @Test func aPatchWithItsOwnGRPCReplacesTheParentsAnswer() async throws {
        let root = try Self.parentBesideChild()
        try Data("""
            extends: transit
            description: The operator is down.
            network:
              routes:
                - extends: locate
                  request: {url: https://vehicles.example/transit.Vehicles/Locate}
                  response: {grpc: {descriptors: transit.pb, status: {code: UNAVAILABLE, message: down}}}
            """.utf8).write(to: root.appendingPathComponent("transit-down/scenario.yaml"))
        let catalog = ScenarioCatalog.load(from: [root], models: ["TripPlanner"])
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        let route = try #require(catalog.scenarios["transit-down"]?.routes.first)
        let answerer = try #require(route.outcomes.first?.answerer as? any RPCAnswerer)
        #expect(answerer.script.status == RPCStatus(code: 14, message: "down") && answerer.script.messages.isEmpty)
    }

    @Test func aPatchWithAPlainStatusAnswersWithIt() async throws {
        let root = try Self.parentBesideChild()
        try Data("""
            extends: transit
            description: The operator's gateway answers 503.
            network:
              routes:
                - extends: locate
                  response: {status: 503}
            """.utf8).write(to: root.appendingPathComponent("transit-down/scenario.yaml"))
        let catalog = ScenarioCatalog.load(from: [root], models: ["TripPlanner"])
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        let outcome = try #require(catalog.scenarios["transit-down"]?.routes.first?.outcomes.first)
        #expect(outcome.answerer == nil)
        guard case .response(let response) = outcome.result else { Issue.record("not a response"); return }
        #expect(response.head.status.code == 503)
    }
}
