import ControlAPI
import FeedReader
import Foundation
import Ratings
import ScenarioHost
import Services
import Testing

/// A Model's description is read from its own `Action` type, so it cannot drift from the declaration.
@Suite struct ModelDescriptionTests {
    @Test func theShippedModelsDescribeTheirActions() throws {
        let ratings = try ModelDescription(of: Ratings.self)
        #expect(ratings.actions.map(\.name) == ["signIn", "fetchRating", "rate"])
        #expect(ratings.actions[0].arguments == [
            ArgumentDescription(name: "user", type: "string", required: true),
            ArgumentDescription(name: "password", type: "string", required: true),
        ])
        #expect(ratings.actions[1].arguments.isEmpty)
        #expect(ratings.actions[2].arguments.map(\.type) == ["integer", "integer"])
        #expect(ratings.keys.map(\.key) == ["session"])
        let feed = try ModelDescription(of: FeedReader.self)
        #expect(feed.actions.last?.arguments.map { "\($0.name):\($0.type)" } == ["url:string", "value:boolean"])
        #expect(shippedModels.descriptions.map(\.name) == ["Assistant", "FeedReader", "Ratings", "TripPlanner"])
    }

    /// Arguments of every shape a team's Action may have: optional, nested, unlabelled, dates, arrays.
    @Test func everyArgumentShapeIsDescribed() throws {
        let description = try ModelDescription(of: Shapes.self)
        let schedule = try #require(description.actions.first { $0.name == "schedule" })
        #expect(schedule.arguments == [
            ArgumentDescription(name: "at", type: "string", required: true),
            ArgumentDescription(name: "note", type: "string", required: false),
            ArgumentDescription(name: "place", type: "object", required: true),
            ArgumentDescription(name: "tags", type: "array", required: true),
            ArgumentDescription(name: "priority", type: "number", required: true),
        ])
        let unlabelled = try #require(description.actions.first { $0.name == "pick" })
        #expect(unlabelled.arguments == [ArgumentDescription(name: "_0", type: "integer", required: true)])
    }

    @Test func anActionNameThatIsNotACaseIsRefused() {
        do {
            _ = try ModelDescription(of: Misnamed.self)
            Issue.record("an action name that is not a case was accepted")
        } catch {
            #expect(error.description == "Misnamed.actionNames lists 'cancel', which is not a case of Misnamed.Action; list exactly the cases of Action.")
        }
    }

    @Test func anUndeclaredArgumentIsRefusedAsUnknownNamingIt() async throws {
        let host = makeHost()
        try await host.createSession(of: "ratings-signed-in", id: "strict")
        let session = try await host.session("strict")
        await #expect(throws: HostError.self) {
            try await session.perform("rate", arguments: ["driver": 5, "bus": 4, "comment": "nice"])
        }
        do {
            try await session.perform("rate", arguments: ["driver": 5, "buss": 4])
            Issue.record("a misspelt argument was accepted")
        } catch {
            #expect(error.code == .unknownField)
            #expect(error.message == "action 'rate' has no argument 'buss'. Did you mean 'bus'? (its arguments: driver, bus.)")
        }
    }
}

/// A Model whose actions take every kind of argument.
actor Shapes: Model {
    struct Place: Codable, Sendable { var name: String; var floor: Int? }
    enum Priority: Int, Codable, Sendable { case low, high }
    enum Action: Decodable, Sendable {
        case schedule(at: Date, note: String?, place: Place, tags: [String], priority: Priority)
        case pick(Int)
    }
    static let name = "Shapes"
    static let actionNames = ["schedule", "pick"]
    var state = 0
    init(services: ModelServices) {}
    func perform(_ action: Action) async {}
    func run() async {}
}

/// A Model whose actionNames lists a case it does not have.
actor Misnamed: Model {
    enum Action: Decodable, Sendable { case start }
    static let name = "Misnamed"
    static let actionNames = ["start", "cancel"]
    var state = 0
    init(services: ModelServices) {}
    func perform(_ action: Action) async {}
    func run() async {}
}
