import Foundation
import Testing

/// `GET /v1/models` agrees with what the Models accept: every described action, performed with arguments built
/// from its description alone, is accepted; and `scenarioctl models` / `actions` print it.
@Suite struct ModelDescriptionEndToEndTests {
    struct Model: Decodable { var name: String; var actions: [Action] }
    struct Action: Decodable { var name: String; var arguments: [Argument] }
    struct Argument: Decodable { var name: String; var type: String; var required: Bool }
    struct Scenario: Decodable { var name: String; var model: String?; var valid: Bool }

    static func sample(_ type: String) -> String {
        switch type {
        case "string": #""text""#
        case "integer": "3"
        case "number": "2.5"
        case "boolean": "true"
        case "array": "[]"
        default: "{}"
        }
    }

    @Test func everyDescribedActionIsAcceptedWithArgumentsBuiltFromItsDescription() async throws {
        let daemon = try await RunningDaemon.start([])
        let models = try JSONDecoder().decode([Model].self, from: Data(try await CurlTransport.request("GET", "/v1/models", socket: daemon.socket).body.utf8))
        #expect(models.map(\.name) == ["Assistant", "FeedReader", "Ratings", "TripPlanner"])
        let scenarios = try JSONDecoder().decode([Scenario].self, from: Data(try await CurlTransport.request("GET", "/v1/scenarios", socket: daemon.socket).body.utf8))
        var performed = 0
        for model in models {
            let scenario = try #require(scenarios.first { $0.model == model.name && $0.valid }, "no scenario of \(model.name)")
            let id = "describe-\(model.name)"
            let created = try await CurlTransport.request("POST", "/v1/sessions", body: #"{"scenario":"\#(scenario.name)","id":"\#(id)"}"#, socket: daemon.socket)
            #expect(created.status == 201, "\(created.body)")
            for action in model.actions {
                let body = "{" + action.arguments.map { "\"\($0.name)\":\(Self.sample($0.type))" }.joined(separator: ",") + "}"
                let answer = try await CurlTransport.request("POST", "/v1/sessions/\(id)/actions/\(action.name)", body: body, socket: daemon.socket)
                #expect(answer.status == 200, "\(model.name).\(action.name) \(body): \(answer.status) \(answer.body)")
                performed += 1
            }
        }
        #expect(performed == 13)
        #expect(await daemon.stop() == 0)
    }

    /// docs/models/*.md are made from the daemon's description; a Model that changes without them fails here.
    @Test func theModelReferencePagesAreCurrent() async throws {
        let result = try await ProcessResult.run("/usr/bin/python3", [
            Binaries.repository.appendingPathComponent("scripts/model-reference").path, "--check",
            "--daemon", Binaries.scenariod, "--scenarios", Binaries.scenarios.path,
            "--out", Binaries.repository.appendingPathComponent("docs/models").path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 model reference pages are current"), "\(result.stdout)")
    }

    @Test func scenarioctlPrintsModelsAndActions() async throws {
        let daemon = try await RunningDaemon.start([])
        let models = try await ProcessResult.run(Binaries.scenarioctl, ["models", "--socket", daemon.socket])
        #expect(models.status == 0 && models.stdout.contains("Ratings") && models.stdout.contains("signIn, fetchRating, rate"), "\(models.stdout)\(models.stderr)")
        let actions = try await ProcessResult.run(Binaries.scenarioctl, ["actions", "Ratings", "--socket", daemon.socket])
        #expect(actions.stdout.contains("rate") && actions.stdout.contains("driver=<integer> bus=<integer>"), "\(actions.stdout)\(actions.stderr)")
        let unknown = try await ProcessResult.run(Binaries.scenarioctl, ["actions", "Ratngs", "--socket", daemon.socket])
        #expect(unknown.status == 1 && unknown.stderr.contains("hosts no Model 'Ratngs'"), "\(unknown.stderr)")
        #expect(await daemon.stop() == 0)
    }
}
