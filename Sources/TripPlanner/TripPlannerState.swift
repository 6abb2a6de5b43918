/// Everything a client sees of a ``TripPlanner`` Model.
public struct TripPlannerState: Codable, Sendable, Hashable {
    /// The last search's trips, as the planner listed them.
    public var results: [Trip] = []
    /// The trips the user saved, oldest first.
    public var saved: [SavedTrip] = []
    /// The vehicle being followed live, or nil.
    public var following: Following?
    /// True while a search is waiting for the planner.
    public var isSearching = false
    /// A sentence to show the user about the last failure, or nil.
    public var error: String?

    /// Nothing searched, saved or followed.
    public init() {}
}

/// A trip the planner offers.
public struct Trip: Codable, Sendable, Hashable {
    public var id: String
    /// The stops' names.
    public var from: String
    public var to: String
    /// When it leaves, as the planner writes it (`09:12`).
    public var departs: String
    public var minutes: Int
    /// The vehicle's name (`Line 100 to Drammen`, `Bergensbanen`).
    public var vehicle: String
    /// The vehicle's id, which `follow` watches.
    public var vehicleID: String

    public init(id: String, from: String, to: String, departs: String, minutes: Int, vehicle: String, vehicleID: String) {
        self.id = id
        self.from = from
        self.to = to
        self.departs = departs
        self.minutes = minutes
        self.vehicle = vehicle
        self.vehicleID = vehicleID
    }
}

/// A trip the user saved, with their note.
public struct SavedTrip: Codable, Sendable, Hashable {
    /// The saved entry's own id, which `forget` takes.
    public var id: String
    public var trip: Trip
    public var note: String?

    public init(id: String, trip: Trip, note: String?) {
        self.id = id
        self.trip = trip
        self.note = note
    }
}

/// The vehicle followed live and where it was last seen.
public struct Following: Codable, Sendable, Hashable {
    public var tripID: String
    public var vehicleID: String
    /// Where it was last reported; nil until the first report.
    public var latitude: Double?
    public var longitude: Double?
    /// How late it runs, by its last report.
    public var delayMinutes: Int?
    /// How many positions have arrived.
    public var updates = 0
    /// True once the planner said no more positions will come (the trip ended).
    public var ended = false

    public init(tripID: String, vehicleID: String) {
        self.tripID = tripID
        self.vehicleID = vehicleID
    }
}
