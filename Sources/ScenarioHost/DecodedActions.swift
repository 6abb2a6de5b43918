import Services
import Synchronization

/// The actions of one Model decoded so far, by their JSON, shared by every session of it: decoding one goes through
/// Foundation's encoder and then its decoder (a tenth of a FeedReader reload's time, profiled), and tests and walks
/// send the same few again and again. An action is a value decoded from its JSON alone, so the same JSON gives
/// the same action.
final class DecodedActions<Action: Decodable & Sendable>: Sendable {
    private let decoded = Mutex<[JSONValue: Action]>([:])

    /// More than the distinct actions of a suite; past it the table starts over, so its memory stays small.
    private var capacity: Int { 512 }

    /// Action `name` with `arguments`, decoded as ``ActionDecoding/decode(_:name:arguments:)`` decodes it.
    func decode(_ name: String, arguments: JSONValue) throws(HostError) -> Action {
        let key = JSONValue.object([name: arguments])
        if let action = decoded.withCheckedLock({ $0[key] }) { return action }
        let action = try ActionDecoding.decode(Action.self, name: name, arguments: arguments)
        decoded.withCheckedLock { table in
            if table.count >= capacity { table.removeAll() }
            table[key] = action
        }
        return action
    }
}
