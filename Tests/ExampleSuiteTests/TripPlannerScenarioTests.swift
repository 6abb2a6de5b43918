import ControlAPI
import Foundation
import ScenarioTesting
import Services
import Testing
import TripPlanner

/// The shipped TripPlanner, a `@MainActor` Model that talks GraphQL: searches answered from the scenario's schema and
/// data, saves and forgets that change the session's data, and a vehicle followed through a gRPC stream whose
/// positions arrive on the session's clock; hosted in the test process and by the daemon alike.
@Suite struct TripPlannerScenarioTests {
    enum Mode: String, CaseIterable, Sendable {
        case inProcess, daemon

        func start() async throws -> TestDaemon {
            switch self {
            case .inProcess: try TestDaemon.inProcess(models: [TripPlanner.self])
            case .daemon: try await TestDaemon.shared.value
            }
        }
    }

    struct Planner: Decodable, Sendable, Equatable {
        struct Trip: Decodable, Sendable, Equatable { var id: String; var from: String; var to: String; var departs: String; var vehicle: String; var vehicleID: String }
        struct Saved: Decodable, Sendable, Equatable { var id: String; var trip: Trip; var note: String? }
        struct Following: Decodable, Sendable, Equatable { var vehicleID: String; var latitude: Double?; var delayMinutes: Int?; var updates: Int; var ended: Bool }
        var results: [Trip]
        var saved: [Saved]
        var following: Following?
        var error: String?
    }

    @Test(arguments: Mode.allCases)
    func searchSaveForgetAndFollowAVehicleOnTheClock(mode: Mode) async throws {
        try await withScenario("trips-happy", daemon: try await mode.start()) { session in
            var planner = try await session.state(as: Planner.self)
            #expect(planner.saved.map(\.note) == ["Summer holiday"], "run() loads the saved trips")

            planner = try await session.perform("search", ["from": "oslo-s", "to": "drammen"], as: Planner.self)
            #expect(planner.results.map(\.id) == ["t-0912", "t-0925"])
            #expect(planner.results.first?.vehicle == "Line 100 to Drammen" && planner.results.last?.from == "Oslo S")

            planner = try await session.perform("save", ["tripID": "t-0912", "note": "Work"], as: Planner.self)
            #expect(planner.saved.map(\.id) == ["saved-1", "savedtrip-1"] && planner.saved.last?.trip.departs == "09:12")
            planner = try await session.perform("forget", ["savedID": "saved-1"], as: Planner.self)
            #expect(planner.saved.map(\.id) == ["savedtrip-1"])

            planner = try await session.perform("follow", ["tripID": "t-0912"], as: Planner.self)
            #expect(planner.following?.updates == 0 && planner.following?.vehicleID == "bus-100")
            _ = try await session.advanceClock(by: "30s")
            planner = try await session.state(as: Planner.self)
            #expect(planner.following?.latitude == 59.9111 && planner.following?.updates == 1)
            _ = try await session.advanceClock(by: "90s")
            planner = try await session.state(as: Planner.self)
            #expect(planner.following == .init(vehicleID: "bus-100", latitude: 59.7441, delayMinutes: 2, updates: 3, ended: true))
            #expect(planner.error == nil)

            // Every request went to the planner's GraphQL endpoint and was answered; the gRPC call carried the positions,
            // journaled as JSON both ways, and ended OK when its route said.
            let requests = try await session.requests()
            #expect(requests.allSatisfy { $0.status == 200 }, "\(requests.map { "\($0.url) \(String(describing: $0.status))" })")
            #expect(requests.map(\.route) == ["planner", "planner", "planner", "planner", "planner", "vehicle-positions"])
            let call = try #require(requests.last)
            #expect(call.url == "https://vehicles.example/transit.Vehicles/Follow" && call.body == #"{"vehicle":"bus-100"}"#)
            #expect(call.stream?.kind == .rpc && call.stream?.state == .closed && call.stream?.close == WebSocketClose(code: 0))
            #expect(call.stream?.chunks.map(\.text).first == #"{"delayMinutes":0,"lat":59.9111,"lon":10.7528,"occupancy":"SEATS_AVAILABLE","vehicle":"bus-100"}"#)
            #expect(call.stream?.chunks.count == 3)
        }
    }

    @Test(arguments: Mode.allCases)
    func aPlannerThatIsDownSaysSoAndTheSavedTripsStillLoad(mode: Mode) async throws {
        try await withScenario("trips-planner-down", daemon: try await mode.start()) { session in
            let planner = try await session.perform("search", ["from": "oslo-s", "to": "bergen"], as: Planner.self)
            #expect(planner.results.isEmpty && planner.error == "The planner says: The journey planner is down for maintenance.")
            #expect(planner.saved.count == 1)
        }
    }
}
