import Services

/// The actions of one Model decoded so far, by their JSON, shared by every session of it: decoding one goes through
/// Foundation's encoder and then its decoder (a tenth of a FeedReader reload's time, profiled), and tests and walks
/// send the same few again and again. An action is a value decoded from its JSON alone, so the same JSON gives
/// the same action.
final class DecodedActions<Action: Decodable & Sendable>: Sendable {
    /// More than the distinct actions of a suite, so its memory stays small.
    let memo: BoundedMemo<JSONValue, Action>

    init(of model: String) {
        memo = BoundedMemo("decoded actions of \(model)", count: 1024)
    }

    /// Action `name` with `arguments`, decoded as ``ActionDecoding/decode(_:name:arguments:)`` decodes it.
    func decode(_ name: String, arguments: JSONValue) throws(HostError) -> Action {
        try memo.value(for: .object([name: arguments])) { () throws(HostError) in
            try ActionDecoding.decode(Action.self, name: name, arguments: arguments)
        }
    }
}
