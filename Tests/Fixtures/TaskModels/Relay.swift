import Foundation
import HTTPTypes
public import Services

/// An actor whose action starts a task that starts another task, which awaits a fake response (delayed on the
/// virtual clock by the scenario's route).
public actor Relay: Model {
    public static let name = "Relay"
    public static let actionNames = ["relay"]
    static let answerURL = URL(string: "https://relay.test/answer")!

    public enum Action: Decodable, Sendable {
        case relay
    }

    public struct State: Encodable, Sendable {
        public var answer: String?
        public var hops = 0
    }

    public private(set) var state = State()
    private let network: any NetworkService

    public init(services: ModelServices) {
        network = services.network
    }

    public func perform(_ action: Action) async {
        state.hops += 1
        Task {
            let inner = Task { try await self.network.send(NetworkRequest(method: .get, url: Self.answerURL)) }
            let response = try await inner.value
            self.received(String(decoding: response.body, as: UTF8.self))
        }
    }

    private func received(_ answer: String) {
        state.answer = answer
        state.hops += 1
    }

    public func run() async {}
}
