import Foundation
import Services
import Synchronization

/// How one Model's states become ``ModelState`` bytes, for every session of it. Encoding was a fifth of an
/// exploration's time (profiled), and most states a Model reaches it has reached before: an action that changed
/// nothing, a clock move that woke nothing the state shows, a walk's replay going through its walk's states again.
/// So a state equal to one encoded before gives those bytes back:
/// - a `Hashable` State is looked up among the states any session of the Model encoded lately;
/// - an `Equatable` State is compared with the last state its own session encoded;
/// - any other State is encoded every time.
///
/// This relies on `==` telling apart every two states that encode differently, as a synthesized conformance does
/// (``Services/Model/State`` says so).
final class StateEncoding<State: Encodable & Sendable>: Sendable {
    /// Makes the encoding of one session's states.
    let encoder: @Sendable () -> @Sendable (State) -> ModelState
    /// The figures of the encodings shared by the Model's sessions; nil for a State that is not `Hashable`.
    let figures: @Sendable () -> MemoFigures?

    init(of model: String) {
        if let hashable = State.self as? any (Hashable & Encodable & Sendable).Type {
            let (shared, figures) = Self.sharing(hashable, name: "encoded states of \(model)")
            encoder = { shared }
            self.figures = figures
        } else if let equatable = State.self as? any (Equatable & Encodable & Sendable).Type {
            encoder = { Self.rememberingLast(equatable) }
            figures = { nil }
        } else {
            encoder = { { Self.encoded($0) } }
            figures = { nil }
        }
    }

    /// Encodes as `encoded` does, unless an equal state is among those the Model's sessions encoded lately. `Value`
    /// is `State`, opened as `Hashable`.
    private static func sharing<Value: Hashable & Encodable & Sendable>(_: Value.Type, name: String)
        -> (@Sendable (State) -> ModelState, @Sendable () -> MemoFigures?) {
        // Bounded in bytes too, so its memory stays small even for a Model whose states are megabytes.
        let memo = BoundedMemo<Value, ModelState>(name, count: 1 << 16, bytes: 8 << 20) { _, state in state.jsonData.count }
        let encode: @Sendable (State) -> ModelState = { state in
            // The same type, seen through its Hashable conformance: the cast cannot fail.
            let value = state as! Value
            return memo.value(for: value) { encoded(value) }
        }
        return (encode, { memo.figures })
    }

    /// The last state a session encoded and its bytes.
    private final class Last<Value: Sendable>: Sendable {
        let entry = Mutex<(value: Value, state: ModelState)?>(nil)
    }

    /// Encodes as `encoded` does, unless the state equals the last one. `Value` is `State`, opened as `Equatable`.
    private static func rememberingLast<Value: Equatable & Encodable & Sendable>(_: Value.Type) -> @Sendable (State) -> ModelState {
        let last = Last<Value>()
        return { state in
            let value = state as! Value
            if let known = last.entry.withCheckedLock({ $0.flatMap { $0.value == value ? $0.state : nil } }) { return known }
            let state = encoded(value)
            last.entry.withCheckedLock { $0 = (value, state) }
            return state
        }
    }

    /// The state as canonical JSON.
    private static func encoded(_ value: some Encodable) -> ModelState {
        // A Model's State is plain Codable data; encoding it fails only for a programming error (a NaN, say).
        ModelState(jsonData: (try? JSONEncoder.services.encode(value)) ?? Data("null".utf8))
    }
}
