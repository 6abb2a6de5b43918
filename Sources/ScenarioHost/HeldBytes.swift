import ControlAPI
import Services
import Synchronization

/// What a session's stores hold, in bytes: what each keeps of what it was given (bodies, chunks, arguments,
/// states), counted as it changes. Each store has its bound (``HostLimits``); the host bounds their sum across
/// sessions (``HostLimits/heldBytes``).
public struct HeldBytes: Sendable, Hashable, Codable {
    /// The journal's entries, their bodies and kept stream chunks.
    public var journal = 0
    /// The history's steps: action arguments, states set, routes, bytes pushed into streams.
    public var history = 0
    /// Events waiting in the session's event streams for their readers.
    public var events = 0
    /// A recording session's exchanges, kept whole.
    public var recording = 0
    /// The answers to requests sent from outside, kept to be read later (`"wait": false`).
    public var sent = 0

    /// Every store's bytes.
    public var total: Int { journal + history + events + recording + sent }

    /// Nothing held.
    public init() {}

    /// What `store` holds.
    public subscript(store: Store) -> Int {
        get {
            switch store {
            case .journal: journal
            case .history: history
            case .events: events
            case .recording: recording
            case .sent: sent
            }
        }
        set {
            switch store {
            case .journal: journal = newValue
            case .history: history = newValue
            case .events: events = newValue
            case .recording: recording = newValue
            case .sent: sent = newValue
            }
        }
    }

    /// A store whose bytes are counted.
    public enum Store: String, Sendable, Hashable, CaseIterable {
        case journal, history, events, recording, sent
    }
}

/// One session's held bytes, counted where each store changes (under the store's own lock or actor, with no hop),
/// each change added to the host's count too, so the host's sum is read at once when it admits new work.
final class SessionBytes: Sendable {
    let session: String
    /// Nil once the session is gone: what its stores still let go of afterwards (an event stream read to its
    /// end) was given back to the host already.
    private let held = Mutex<HeldBytes?>(HeldBytes())
    /// The host's count, which every change is added to.
    let host: HostBytes

    init(session: String, host: HostBytes) {
        self.session = session
        self.host = host
    }

    /// What the session's stores hold now.
    var now: HeldBytes { held.withCheckedLock { $0 } ?? HeldBytes() }

    /// Sets what `store` holds.
    func set(_ store: HeldBytes.Store, to bytes: Int) {
        let change = held.withCheckedLock { held -> Int in
            guard held != nil else { return 0 }
            defer { held?[store] = bytes }
            return bytes - held![store]
        }
        if change != 0 { host.add(change, to: store) }
    }

    /// Adds `change` (negative: takes away) to what `store` holds.
    func add(_ change: Int, to store: HeldBytes.Store) {
        guard change != 0, held.withCheckedLock({ held in
            held?[store] += change
            return held != nil
        }) else { return }
        host.add(change, to: store)
    }

    /// Gives every byte back to the host, once: the session is gone.
    func release() {
        guard let last = held.withCheckedLock({ held in defer { held = nil }; return held }) else { return }
        for store in HeldBytes.Store.allCases where last[store] != 0 { host.add(-last[store], to: store) }
    }
}

/// The bytes held across a host's sessions, by store, and which session holds them, so a refusal past the bound
/// can name the sessions to delete.
final class HostBytes: Sendable {
    private let held = Mutex(HeldBytes())
    private let sessions = Mutex<[ObjectIdentifier: SessionBytes]>([:])

    /// What every session's stores hold now.
    var now: HeldBytes { held.withCheckedLock { $0 } }

    func add(_ change: Int, to store: HeldBytes.Store) {
        held.withCheckedLock { $0[store] += change }
    }

    /// A new session's count.
    func count(session: String) -> SessionBytes {
        let bytes = SessionBytes(session: session, host: self)
        sessions.withCheckedLock { $0[ObjectIdentifier(bytes)] = bytes }
        return bytes
    }

    /// Forgets a session once it is gone, giving back what it held.
    func forget(_ bytes: SessionBytes) {
        bytes.release()
        sessions.withCheckedLock { $0[ObjectIdentifier(bytes)] = nil }
    }

    /// Refuses `work` while the sessions hold `limit` bytes or more, naming those that hold most.
    /// - Throws: ``HostError`` `.tooMuchHeld`.
    func admit(_ work: String, limit: Int) throws(HostError) {
        let total = now.total
        guard total >= limit else { return }
        let largest = largest(3).map { "'\($0.session)' \(ByteCountText.format($0.held.total)) (journal \(ByteCountText.format($0.held.journal)), history \(ByteCountText.format($0.held.history)), event streams \(ByteCountText.format($0.held.events)), recording \(ByteCountText.format($0.held.recording)), answers kept \(ByteCountText.format($0.held.sent)))" }
        throw HostError(.tooMuchHeld, "cannot \(work): the sessions hold \(ByteCountText.format(total)), the daemon's bound (--max-held-bytes \(ByteCountText.format(limit))). Most is held by \(largest.joined(separator: ", ")). Delete or reset sessions that are done (DELETE /v1/sessions/ID, scenarioctl session rm ID), clear their journals, or raise the bound.")
    }

    /// The sessions holding most, most first.
    func largest(_ count: Int) -> [(session: String, held: HeldBytes)] {
        let all = sessions.withCheckedLock { Array($0.values) }.map { ($0.session, $0.now) }
        return Array(all.sorted { $0.1.total > $1.1.total }.prefix(count))
    }
}
