import Assistant
import TripPlanner
import FeedReader
import Foundation
import Ratings
import ScenarioFormat
import ScenarioHost
import Services

/// The repository's shipped `scenarios/` directory.
let shippedScenarios = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scenarios")

/// The Models the shipped scenarios name: scenariod's two examples.
let shippedModels = ModelRegistry([FeedReader.self, Ratings.self, Assistant.self, TripPlanner.self])

/// A host over the shipped scenarios with the shipped Models.
func makeHost(journalCapacity: Int = RequestJournal.defaultCapacity, limits: HostLimits = .default) -> SessionHost {
    let models = shippedModels
    return SessionHost(catalog: ScenarioCatalog.load(from: [shippedScenarios], models: models.names),
                        models: models, journalCapacity: journalCapacity, limits: limits)
}

/// A state decoded into a test's own type: what a client of the Model sees.
struct FeedView: Decodable, Equatable {
    struct Item: Decodable, Equatable {
        var title: String
        var isRead: Bool
    }
    var items: [Item]
    var isLoading: Bool
    var error: String?
    var lastRefresh: String?
}

struct RatingsView: Decodable, Equatable {
    struct Rating: Decodable, Equatable { var average: Double; var count: Int }
    struct Submission: Decodable, Equatable { var driver: Int; var bus: Int }
    var user: String?
    var rating: Rating?
    var lastSubmitted: Submission?
    var isBusy: Bool
    var error: String?
}

extension Session {
    func feed() async throws -> FeedView { try await state().decoded(as: FeedView.self) }
    func ratings() async throws -> RatingsView { try await state().decoded(as: RatingsView.self) }
}
