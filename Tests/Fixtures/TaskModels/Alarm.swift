import Foundation
import HTTPTypes
public import Services

/// What the alarm reaches when it rings: a team's service, so a test can see a ring that should never happen.
public protocol Bell: Sendable {
    func ring(_ note: String) async
}

/// The key of ``Bell`` in ``/Services/Services``.
public enum BellKey: ServiceKey {
    public typealias Value = any Bell
    public static let name = "bell"
}

/// An actor whose action arms a timer that, when it fires, rings a bell, writes the store and sends a request:
/// a timer pending when its session is deleted, reset or rewound must do none of these.
public actor Alarm: Model {
    public static let name = "Alarm"
    public static let actionNames = ["arm", "armCarelessly"]
    static let ringURL = URL(string: "https://alarm.test/ring")!

    public enum Action: Decodable, Sendable {
        /// A timer that stops when its sleep is cancelled.
        case arm(seconds: Int, note: String)
        /// A timer that ignores the cancellation (`try?`) and rings anyway.
        case armCarelessly(seconds: Int, note: String)
    }

    public struct State: Encodable, Sendable {
        public var armed: [String] = []
        public var rang: [String] = []
    }

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) {
        self.services = services
    }

    public func perform(_ action: Action) async {
        switch action {
        case .arm(let seconds, let note):
            state.armed.append(note)
            Task {
                try await services.clock.sleep(for: .seconds(seconds))
                await ring(note)
            }
        case .armCarelessly(let seconds, let note):
            state.armed.append(note)
            Task {
                try? await services.clock.sleep(for: .seconds(seconds))
                await ring(note)
            }
        }
    }

    private func ring(_ note: String) async {
        state.rang.append(note)
        await services[BellKey.self].ring(note)
        try? await services.keyValue.set(note, forKey: "rang")
        _ = try? await services.network.send(NetworkRequest(method: .post, url: Self.ringURL, body: Data(note.utf8)))
    }

    public func run() async {}
}
