import Foundation
import HTTPTypes
import Synchronization
public import Services

// Models with a bug that only one kind of sequence reveals, for the tests of `explore`: each test knows the bug's
// shortest walk, so it can check that explore finds it and shrinks to it.

/// An inbox whose retry, after a refresh that failed, forgets the unread count: offline → refresh → online → the
/// retry's timer → mark a message read, and the count goes below zero. Shortest walk: those 5 steps.
public actor Inbox: Model {
    public static let name = "Inbox"
    public static let actionNames = ["refresh", "markRead"]
    static let messagesURL = URL(string: "https://inbox.test/messages")!

    public enum Action: Decodable, Sendable {
        case refresh
        case markRead(id: String)
    }

    public struct State: Encodable, Sendable {
        public var messages: [String] = []
        public var read: [String] = []
        public var unread = 0
        public var retrying = false
        public var error: String?
    }

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) { self.services = services }

    public func run() async { await refresh(isRetry: false) }

    public func perform(_ action: Action) async {
        switch action {
        case .refresh: await refresh(isRetry: false)
        case .markRead(let id):
            guard state.messages.contains(id), !state.read.contains(id) else { return }
            state.read.append(id)
            state.unread -= 1
        }
    }

    private func refresh(isRetry: Bool) async {
        do {
            let response = try await services.network.send(NetworkRequest(method: .get, url: Self.messagesURL))
            let ids = try JSONDecoder().decode([String].self, from: response.body)
            state.messages = ids
            // The bug: a retry's messages are counted as seen.
            state.unread = isRetry ? 0 : ids.filter { !state.read.contains($0) }.count
            state.error = nil
        } catch {
            state.error = "could not refresh: \(error)"
            guard !state.retrying else { return }
            state.retrying = true
            Task {
                try await services.clock.sleep(for: .seconds(30))
                state.retrying = false
                await refresh(isRetry: true)
            }
        }
    }
}

/// A ledger that fetches a deposit and a charge at once and applies each as it arrives, never going below zero:
/// when the charge, due at the same instant, is handled first, the balance ends 5 too high. Shortest walk: `sync`
/// and a clock move of a second or more, under a schedule seed that orders the charge first.
public actor Ledger: Model {
    public static let name = "Ledger"
    public static let actionNames = ["sync"]

    public enum Action: Decodable, Sendable {
        case sync
    }

    public struct State: Encodable, Sendable {
        /// The balance as the ledger keeps it.
        public var balance = 0
        /// Every amount applied, summed without the floor: what the balance should be.
        public var applied = 0
    }

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) { self.services = services }

    public func run() async {}

    public func perform(_ action: Action) async {
        async let deposit: Void = apply("https://ledger.test/deposit")
        async let charge: Void = apply("https://ledger.test/charge")
        _ = await (deposit, charge)
    }

    private func apply(_ url: String) async {
        guard let response = try? await services.network.send(NetworkRequest(method: .get, url: URL(string: url)!)),
              let amount = Int(String(decoding: response.body, as: UTF8.self)) else { return }
        state.applied += amount
        state.balance = max(0, state.balance + amount)
    }
}

/// A poller whose timer, every minute, restarts a request that looks stuck without cancelling it: a clock move of
/// a minute or more while a `fetch` (answered after 90 s) is in flight leaves two in flight. Shortest walk: `fetch`
/// and one long move.
public actor Poller: Model {
    public static let name = "Poller"
    public static let actionNames = ["fetch"]

    public enum Action: Decodable, Sendable {
        case fetch
    }

    public struct State: Encodable, Sendable {
        public var inFlight = 0
        public var fetched = 0
    }

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) { self.services = services }

    public func run() async {
        while true {
            do { try await services.clock.sleep(for: .seconds(60)) } catch { return }
            if state.inFlight > 0 { Task { await fetch() } }
        }
    }

    public func perform(_ action: Action) async {
        guard state.inFlight == 0 else { return }
        Task { await fetch() }
    }

    private func fetch() async {
        state.inFlight += 1
        defer { state.inFlight -= 1 }
        if (try? await services.network.send(NetworkRequest(method: .get, url: URL(string: "https://poller.test/status")!))) != nil {
            state.fetched += 1
        }
    }
}

/// A desk whose bookings have random ids (`bk-37e00afb`, drawn from the session's random service, so each depends on
/// how many were drawn before) and expire after ten minutes, and whose refund forgets to check for expiry: reserve,
/// ten minutes, refund that booking. Shortest walk: those 3 steps; a walk that reserved twice before refunding the
/// second shrinks to them only if the refund takes its id from the state by where it was, not by its value.
public actor RefundDesk: Model {
    public static let name = "RefundDesk"
    public static let actionNames = ["reserve", "refund"]

    public enum Action: Decodable, Sendable {
        case reserve
        case refund(id: String)
    }

    public struct Booking: Encodable, Sendable {
        public var id: String
        public var status: String
        public var refunds: Int
    }

    public struct State: Encodable, Sendable {
        public var bookings: [Booking] = []
    }

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) { self.services = services }

    public func run() async {}

    public func perform(_ action: Action) async {
        switch action {
        case .reserve:
            let id = "bk-" + String(services.random.next() & 0xffff_ffff, radix: 16)
            state.bookings.append(Booking(id: id, status: "held", refunds: 0))
            Task {
                try await services.clock.sleep(for: .seconds(600))
                expire(id)
            }
        case .refund(let id):
            // The bug: an expired booking is refunded too.
            guard let index = state.bookings.firstIndex(where: { $0.id == id }) else { return }
            state.bookings[index].refunds += 1
        }
    }

    private func expire(_ id: String) {
        guard let index = state.bookings.firstIndex(where: { $0.id == id }), state.bookings[index].status == "held" else { return }
        state.bookings[index].status = "expired"
    }
}

/// A Model that counts its actions in a number the whole process shares, so no two sessions run it alike: the one
/// kind of difference a session cannot own or see. Explore can only catch it as `replayIsIdentical`, and `play` of
/// that walk must catch it again. (Global mutable state on purpose: it is what this Model is for.)
public actor Forgetful: Model {
    public static let name = "Forgetful"
    public static let actionNames = ["tick"]
    private static let shared = Atomic<Int>(0)

    public enum Action: Decodable, Sendable {
        case tick
    }

    public struct State: Encodable, Sendable {
        public var ticks: [Int] = []
    }

    public private(set) var state = State()

    public init(services: ModelServices) {}

    public func run() async {}

    public func perform(_ action: Action) async {
        state.ticks.append(Self.shared.add(1, ordering: .relaxed).newValue)
    }
}
