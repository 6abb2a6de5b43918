import Foundation
import HTTPTypes
import Services

/// The planner's GraphQL API: queries and mutations as `POST /graphql` (GraphQL over HTTP). Written by hand, as a small
/// app would without a GraphQL client library: the documents below are all it sends. (Vehicle positions come from the
/// operator's gRPC service, through the generated `Transit_Vehicles.Client`.)
struct TripPlannerAPI {
    static let tripFields = "id departs minutes from { name } to { name } vehicle { __typename id name }"
    static let search = "query Search($from: ID!, $to: ID!) { trips(from: $from, to: $to) { \(tripFields) } }"
    static let trip = "query Trip($id: ID!) { trip(id: $id) { \(tripFields) } }"
    static let saved = "query Saved { saved { id note trip { \(tripFields) } } }"
    static let save = "mutation Save($input: SaveInput!) { saveTrip(input: $input) { id note trip { \(tripFields) } } }"
    static let forget = "mutation Forget($id: ID!) { forgetTrip(id: $id) }"

    /// A trip as the documents above select it.
    struct TripData: Decodable {
        struct Stop: Decodable { var name: String }
        struct Vehicle: Decodable { var id: String; var name: String }
        var id: String
        var departs: String
        var minutes: Int
        var from: Stop
        var to: Stop
        var vehicle: Vehicle

        var trip: Trip {
            Trip(id: id, from: from.name, to: to.name, departs: departs, minutes: minutes, vehicle: vehicle.name, vehicleID: vehicle.id)
        }
    }

    struct SavedData: Decodable {
        var id: String
        var note: String?
        var trip: TripData
    }

    /// A GraphQL answer: `data` (of the operation's shape) and `errors`.
    struct Answer<Data: Decodable>: Decodable {
        struct Problem: Decodable { var message: String }
        var data: Data?
        var errors: [Problem]?
    }

    let base: URL

    var endpoint: URL { base.appendingPathComponent("graphql") }

    /// `query` with `variables`, as GraphQL over HTTP posts it.
    func request(_ query: String, name: String, variables: [String: JSONValue] = [:]) -> NetworkRequest {
        let body = JSONValue.object(["query": .string(query), "operationName": .string(name), "variables": .object(variables)])
        return NetworkRequest(method: .post, url: endpoint, headerFields: [.contentType: "application/json", .accept: "application/json"],
                              body: body.jsonData)
    }
}
