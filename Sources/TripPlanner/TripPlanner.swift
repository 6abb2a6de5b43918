public import Foundation
import GRPCCore
import HTTPTypes
import ScenarioGRPC
public import Services
import SwiftProtobuf

/// Model #4: a trip planner that talks GraphQL and gRPC. `search` asks the planner for trips between two stops,
/// `save` and `forget` keep trips through GraphQL mutations, and `follow` watches the trip's vehicle move through the
/// transit operator's gRPC stream of positions (grpc-swift 2), each position arriving on the session's clock.
///
/// It is the `@MainActor` kind of Model, as an app's view model is: its state is the main actor's, and the
/// stream runs as its own task, which the session owns and orders like any other.
@MainActor
public final class TripPlanner: Model {
    public nonisolated static let name = "TripPlanner"
    public nonisolated static let actionNames = ["search", "save", "forget", "follow", "unfollow"]

    /// The planner's API root.
    public nonisolated static let apiBase = URL(string: "https://trips.example")!
    /// The transit operator's gRPC server, which streams vehicle positions.
    public nonisolated static let vehiclesBase = URL(string: "https://vehicles.example")!

    /// What a client may ask of the planner.
    public enum Action: Decodable, Sendable {
        /// Find trips between two stops, by their ids (`oslo-s`, `drammen`).
        case search(from: String, to: String)
        /// Save a trip, by its id, with a note.
        case save(tripID: String, note: String?)
        /// Forget a saved trip, by the saved entry's id.
        case forget(savedID: String)
        /// Follow the vehicle of a trip, by its id; following another stops the first.
        case follow(tripID: String)
        /// Stop following.
        case unfollow
    }

    private let services: ModelServices
    private let api = TripPlannerAPI(base: TripPlanner.apiBase)
    private var subscription: Task<Void, Never>?
    public private(set) var state = TripPlannerState()

    public init(services: ModelServices) {
        self.services = services
    }

    /// Loads the saved trips.
    public func run() async {
        guard let saved: Saved = await ask(TripPlannerAPI.saved, name: "Saved") else { return }
        state.saved = saved.saved.map { SavedTrip(id: $0.id, trip: $0.trip.trip, note: $0.note) }
    }

    public func perform(_ action: Action) async {
        switch action {
        case .search(let from, let to):
            guard !from.isEmpty, !to.isEmpty, from != to else {
                state.error = "Pick two different stops."
                return
            }
            state.isSearching = true
            defer { state.isSearching = false }
            guard let found: Search = await ask(TripPlannerAPI.search, name: "Search", variables: ["from": .string(from), "to": .string(to)]) else { return }
            state.results = found.trips.map(\.trip)
        case .save(let tripID, let note):
            var input: [String: JSONValue] = ["trip": .string(tripID)]
            if let note { input["note"] = .string(note) }
            guard let saved: Save = await ask(TripPlannerAPI.save, name: "Save", variables: ["input": .object(input)]) else { return }
            state.saved.append(SavedTrip(id: saved.saveTrip.id, trip: saved.saveTrip.trip.trip, note: saved.saveTrip.note))
        case .forget(let savedID):
            guard let index = state.saved.firstIndex(where: { $0.id == savedID }) else {
                state.error = "No saved trip is \(savedID)."
                return
            }
            guard let forgot: Forget = await ask(TripPlannerAPI.forget, name: "Forget", variables: ["id": .string(savedID)]) else { return }
            if forgot.forgetTrip { state.saved.remove(at: index) }
        case .follow(let tripID):
            // The trip's vehicle, as the planner says now: a search's may be stale.
            guard let found: FoundTrip = await ask(TripPlannerAPI.trip, name: "Trip", variables: ["id": .string(tripID)]) else { return }
            guard let trip = found.trip else {
                state.error = "The planner has no trip \(tripID)."
                return
            }
            subscription?.cancel()
            state.following = Following(tripID: trip.id, vehicleID: trip.vehicle.id)
            subscription = Task { await follow(trip.vehicle.id) }
        case .unfollow:
            subscription?.cancel()
            subscription = nil
            state.following = nil
        }
    }

    private struct Search: Decodable { var trips: [TripPlannerAPI.TripData] }
    private struct Saved: Decodable { var saved: [TripPlannerAPI.SavedData] }
    private struct Save: Decodable { var saveTrip: TripPlannerAPI.SavedData }
    private struct Forget: Decodable { var forgetTrip: Bool }
    private struct FoundTrip: Decodable { var trip: TripPlannerAPI.TripData? }

    /// Sends one query or mutation and decodes its data; on a failure, says why in `state.error` and returns nil.
    private func ask<Data: Decodable>(_ document: String, name: String, variables: [String: JSONValue] = [:]) async -> Data? {
        state.error = nil
        let response: NetworkResponse
        do {
            response = try await services.network.send(api.request(document, name: name, variables: variables))
        } catch {
            state.error = error == .offline ? "You are offline." : "The planner could not be reached: \(error)"
            return nil
        }
        guard let answer = try? JSONDecoder.services.decode(TripPlannerAPI.Answer<Data>.self, from: response.body) else {
            state.error = "The planner answered \(response.head.status.codeAndReason) with something that is not its answer."
            return nil
        }
        if let message = answer.errors?.first?.message {
            state.error = "The planner says: \(message)"
            return nil
        }
        guard let data = answer.data else {
            state.error = "The planner answered \(response.head.status.codeAndReason) without data."
            return nil
        }
        return data
    }

    /// Follows vehicle `vehicleID` until its positions end, the user stops, or the call fails: the operator's
    /// `transit.Vehicles/Follow` stream over gRPC (grpc-swift 2), its transport the Model's own network service.
    private func follow(_ vehicleID: String) async {
        let transport = NetworkServiceTransport(network: services.network, target: Self.vehiclesBase)
        do {
            try await withGRPCClient(transport: transport) { client in
                let vehicles = Transit_Vehicles.Client(wrapping: client)
                try await vehicles.follow(Transit_VehicleRef.with { $0.vehicle = vehicleID }) { @MainActor response in
                    for try await position in response.messages {
                        guard !Task.isCancelled, self.state.following?.vehicleID == vehicleID else { break }
                        self.state.following?.latitude = position.lat
                        self.state.following?.longitude = position.lon
                        self.state.following?.delayMinutes = Int(position.delayMinutes)
                        self.state.following?.updates += 1
                    }
                }
            }
            if !Task.isCancelled, state.following?.vehicleID == vehicleID { state.following?.ended = true }
        } catch let error as RPCError {
            guard !Task.isCancelled, error.code != .cancelled, state.following?.vehicleID == vehicleID else { return }
            state.error = error.code == .notFound ? "The operator has no vehicle \(vehicleID)." : "Following \(vehicleID) was cut off: \(error.code) \(error.message)"
        } catch {
            if !Task.isCancelled, state.following?.vehicleID == vehicleID { state.error = "Following \(vehicleID) was cut off: \(error)" }
        }
    }
}
