import Foundation
import HTTPTypes
public import Services

/// The kinds of work that can become ready at one virtual instant, each a way a seed's order shows.
public enum TieKind: String, Decodable, Sendable, CaseIterable {
    /// `Task {}` timers on the clock, all due together.
    case timers
    /// `Task {}`s each awaiting a network answer, all delayed alike.
    case answers
    /// Child tasks of a task group, ready together.
    case children
    /// `Task {}`s that leave the Model's isolation for nonisolated work and come back.
    case hops
    /// `Task {}`s each reading a stream whose events arrive at the same instants.
    case streams
    /// `Task {}`s each writing the session's key-value store and waiting for its answer.
    case store
}

/// What a tie's work does away from the Model's isolation: nonisolated, so a main-actor Model hops off and back.
enum TieWork {
    static func answerURL(_ index: Int) -> URL { URL(string: "https://ties.test/answer/\(index)")! }
    static let streamURL = URL(string: "https://ties.test/stream")!

    nonisolated static func away(_ index: Int) async -> Int {
        await Task.yield()
        return index
    }

    nonisolated static func answer(_ index: Int, network: any NetworkService) async -> Int {
        _ = try? await network.send(NetworkRequest(method: .get, url: answerURL(index)))
        return index
    }

}

/// An app-style Model (`@MainActor final class`) whose action starts `count` units of work of one ``TieKind``,
/// ready at one virtual instant; each notes when it comes back. The order of `arrivals` is the order the session
/// ran them: with a schedule seed, the seed's alone.
@MainActor
public final class MainTies: Model {
    public nonisolated static let name = "MainTies"
    public nonisolated static let actionNames = ["tie"]

    public enum Action: Decodable, Sendable {
        /// `kind` is a ``TieKind``'s raw value.
        case tie(kind: String, count: Int)
    }

    public struct State: Encodable, Sendable {
        public var arrivals: [String] = []
    }

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) {
        self.services = services
    }

    public func perform(_ action: Action) async {
        guard case .tie(let name, let count) = action, let kind = TieKind(rawValue: name) else { return }
        if kind == .children {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<count { group.addTask { await TieWork.away(index) } }
                for await index in group { arrive("\(kind.rawValue)-\(index)") }
            }
            return
        }
        for index in 0..<count {
            Task {
                switch kind {
                case .timers: try await services.clock.sleep(for: .seconds(10))
                case .answers: _ = await TieWork.answer(index, network: services.network)
                case .hops: _ = await TieWork.away(index)
                case .store: try? await services.keyValue.set(index, forKey: "tie-\(index)")
                case .streams:
                    // Each event is an arrival of its own: readers' events due together interleave as the seed says.
                    guard let stream = try? await services.network.stream(NetworkRequest(method: .get, url: TieWork.streamURL)) else { return }
                    var event = 0
                    do {
                        for try await _ in stream.events {
                            arrive("\(kind.rawValue)-\(index).\(event)")
                            event += 1
                        }
                    } catch {}
                    return
                case .children: break
                }
                arrive("\(kind.rawValue)-\(index)")
            }
        }
    }

    private func arrive(_ label: String) {
        state.arrivals.append(label)
    }

    public func run() async {}
}

/// ``MainTies`` as an `actor` Model.
public actor ActorTies: Model {
    public static let name = "ActorTies"
    public static let actionNames = ["tie"]

    public typealias Action = MainTies.Action
    public typealias State = MainTies.State

    public private(set) var state = State()
    private let services: ModelServices

    public init(services: ModelServices) {
        self.services = services
    }

    public func perform(_ action: Action) async {
        guard case .tie(let name, let count) = action, let kind = TieKind(rawValue: name) else { return }
        if kind == .children {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<count { group.addTask { await TieWork.away(index) } }
                for await index in group { arrive("\(kind.rawValue)-\(index)") }
            }
            return
        }
        for index in 0..<count {
            Task {
                switch kind {
                case .timers: try await services.clock.sleep(for: .seconds(10))
                case .answers: _ = await TieWork.answer(index, network: services.network)
                case .hops: _ = await TieWork.away(index)
                case .store: try? await services.keyValue.set(index, forKey: "tie-\(index)")
                case .streams:
                    // Each event is an arrival of its own: readers' events due together interleave as the seed says.
                    guard let stream = try? await services.network.stream(NetworkRequest(method: .get, url: TieWork.streamURL)) else { return }
                    var event = 0
                    do {
                        for try await _ in stream.events {
                            arrive("\(kind.rawValue)-\(index).\(event)")
                            event += 1
                        }
                    } catch {}
                    return
                case .children: break
                }
                arrive("\(kind.rawValue)-\(index)")
            }
        }
    }

    private func arrive(_ label: String) {
        state.arrivals.append(label)
    }

    public func run() async {}
}
