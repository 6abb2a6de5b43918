import Foundation
public import Services
import Synchronization

/// A request a client sent through a session's network from outside (``Session/sendFromOutside(_:keep:)``): its
/// journal entry as it arrived, and its answer once delivered. An answer that waits on the session's clock arrives
/// later, when a clock move delivers it; ``answer()`` waits for it.
public final class OutsideRequest: Sendable {
    private struct State {
        var arrived: NetworkExchange?
        var result: Result<NetworkResponse, TransportError>?
        /// The callers of ``answer()`` still waiting, each under an id so that one cancelled can be let go of.
        var waiting: [CheckedContinuation<Result<NetworkResponse, TransportError>, Never>] = []
        var waitingIDs: [UUID] = []
    }

    private let state = Mutex(State())

    init() {}

    /// The request's journal entry as it arrived (its sequence number names the request); nil only before the
    /// session ran the send, which it has when ``Session/sendFromOutside(_:keep:)`` returns.
    public var arrived: NetworkExchange? { state.withCheckedLock(\.arrived) }

    /// The answer, or nil while it waits on the session's clock.
    public var result: Result<NetworkResponse, TransportError>? { state.withCheckedLock(\.result) }

    /// The answer, once delivered: at once when it is, else when a move of the session's clock delivers it, or
    /// `.cancelled` when the session is reset, rewound or deleted first. A cancelled caller stops waiting with
    /// `.cancelled`; the request itself goes on.
    public func answer() async -> Result<NetworkResponse, TransportError> {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withCheckedLock { state -> Result<NetworkResponse, TransportError>? in
                    if let result = state.result { return result }
                    if Task.isCancelled { return .failure(.cancelled) }
                    state.waiting.append(continuation)
                    state.waitingIDs.append(id)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            stopWaiting(id)
        }
    }

    func arrive(_ exchange: NetworkExchange) {
        state.withCheckedLock { $0.arrived = exchange }
    }

    func finish(_ result: Result<NetworkResponse, TransportError>) {
        let waiting = state.withCheckedLock { state -> [CheckedContinuation<Result<NetworkResponse, TransportError>, Never>] in
            // Delivered once: a reset's cancellation after the answer came changes nothing.
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiting = []; state.waitingIDs = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }

    private func stopWaiting(_ id: UUID) {
        let stopped = state.withCheckedLock { state -> CheckedContinuation<Result<NetworkResponse, TransportError>, Never>? in
            guard let index = state.waitingIDs.firstIndex(of: id) else { return nil }
            state.waitingIDs.remove(at: index)
            return state.waiting.remove(at: index)
        }
        stopped?.resume(returning: .failure(.cancelled))
    }
}
