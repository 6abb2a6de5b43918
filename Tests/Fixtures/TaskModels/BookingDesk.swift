public import Services

/// What sets one ``BookingDesk`` apart from another: its name, and whether its release timer has the planted bug.
public protocol BookingRules: Sendable {
    static var name: String { get }
    /// The bug: the release timer releases a booking that was confirmed (and charged) at the same instant.
    static var releasesConfirmed: Bool { get }
}

/// The correct desk.
public enum CorrectBooking: BookingRules {
    public static let name = "Booking"
    public static let releasesConfirmed = false
}

/// The desk with an interleaving bug.
public enum CarelessBooking: BookingRules {
    public static let name = "CarelessBooking"
    public static let releasesConfirmed = true
}

/// The app kind of Model a team writes first, a `@MainActor final class`: `reserve` holds a seat and starts two
/// `Task {}` timers due at the same virtual instant ten minutes later: one confirms (and charges) the booking, one
/// releases the seat if it is still held. Which goes first is the schedule seed's choice, and the same seed must give
/// the same run; explore must find the careless desk's bug (release after confirm) and nothing on the correct one.
@MainActor
public final class BookingDesk<Rules: BookingRules>: Model {
    public nonisolated static var name: String { Rules.name }
    public nonisolated static var actionNames: [String] { ["reserve"] }

    public enum Action: Decodable, Sendable {
        case reserve(autoConfirm: Bool)
    }

    public struct Booking: Encodable, Sendable {
        public var id: Int
        public var status: String
        public var charges: Int
    }

    public struct State: Encodable, Sendable {
        public var bookings: [Booking] = []
    }

    public private(set) var state = State()
    private let clock: any ClockService

    public init(services: ModelServices) {
        clock = services.clock
    }

    public func perform(_ action: Action) async {
        guard case .reserve(let autoConfirm) = action else { return }
        let id = state.bookings.count
        state.bookings.append(Booking(id: id, status: "held", charges: 0))
        Task {
            try await clock.sleep(for: .seconds(600))
            guard autoConfirm, state.bookings[id].status == "held" else { return }
            state.bookings[id].status = "confirmed"
            state.bookings[id].charges += 1
        }
        Task {
            try await clock.sleep(for: .seconds(600))
            let status = state.bookings[id].status
            guard status == "held" || (Rules.releasesConfirmed && status == "confirmed") else { return }
            state.bookings[id].status = "released"
        }
    }

    public func run() async {}
}
