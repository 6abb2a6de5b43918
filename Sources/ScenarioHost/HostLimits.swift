
/// How much a host lets its clients hold, so that no client (a test suite that forgets to delete its sessions, a
/// dashboard left open in many tabs, a session driven for days) can grow the daemon without bound. Past a count
/// limit the host refuses with ``/ControlAPI/APIErrorCode/tooManySessions`` or ``/ControlAPI/APIErrorCode/tooManySubscribers``, and past
/// ``heldBytes`` with ``/ControlAPI/APIErrorCode/tooMuchHeld``; nothing open is touched. Past a store's byte bound the store
/// itself gives way, as each bound says.
public struct HostLimits: Sendable, Hashable {
    /// Open sessions. An idle session of a shipped scenario costs about 11 KiB, so the default keeps a full
    /// daemon near 150 MiB.
    public var sessions: Int
    /// Open event streams of one session.
    public var subscribersPerSession: Int
    /// Open event streams across every session. Each buffers up to 1,024 events for
    /// a slow reader, so this bounds that memory too.
    public var subscribers: Int
    /// Bytes one session's journal keeps (bodies and kept stream chunks included); past it the oldest entries are
    /// dropped and counted, as past its entry capacity.
    public var journalBytes: Int
    /// Bytes one session's history keeps (action arguments, states set, routes, pushed bytes); past it no further
    /// step is kept and the session can no longer be rewound, as past ``SessionHistory/limit`` steps.
    public var historyBytes: Int
    /// Bytes one event stream holds for a reader that fell behind; past it the oldest events are dropped and the
    /// reader is told how many (`event: gap`), as past ``EventSubscription/bufferSize`` events.
    public var eventBufferBytes: Int
    /// Bytes one recording session keeps of what it recorded; past it requests are still forwarded but no longer
    /// kept, and saving the recording says so.
    public var recordingBytes: Int
    /// Bytes every session's stores hold together (``HeldBytes``); past it the host refuses new work (a session,
    /// an action, a clock move, a write) with ``/ControlAPI/APIErrorCode/tooMuchHeld``, naming the sessions that hold most,
    /// until some are deleted or reset. Reads, resets, rewinds and deletes are always served.
    public var heldBytes: Int

    /// The daemon's defaults: 10,000 sessions, 64 event streams per session and 1,024 in all; per session a
    /// 16 MiB journal, a 16 MiB history, 16 MiB in each event stream and a 256 MiB recording; 2 GiB across sessions.
    public static let `default` = HostLimits(sessions: 10_000, subscribersPerSession: 64, subscribers: 1_024)

    /// Creates limits; each must be at least 1.
    public init(sessions: Int, subscribersPerSession: Int, subscribers: Int, journalBytes: Int = 16 << 20,
                historyBytes: Int = 16 << 20, eventBufferBytes: Int = 16 << 20, recordingBytes: Int = 256 << 20,
                heldBytes: Int = 2 << 30) {
        precondition([sessions, subscribersPerSession, subscribers, journalBytes, historyBytes, eventBufferBytes,
                      recordingBytes, heldBytes].allSatisfy { $0 >= 1 }, "every limit must be at least 1")
        self.sessions = sessions
        self.subscribersPerSession = subscribersPerSession
        self.subscribers = subscribers
        self.journalBytes = journalBytes
        self.historyBytes = historyBytes
        self.eventBufferBytes = eventBufferBytes
        self.recordingBytes = recordingBytes
        self.heldBytes = heldBytes
    }
}
