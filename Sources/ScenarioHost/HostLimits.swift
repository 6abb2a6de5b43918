/// How much a host lets its clients hold open at once, so that no client (a test suite that forgets to delete its
/// sessions, a dashboard left open in many tabs) can grow the daemon without bound. Past a limit the host refuses
/// with ``HostError/Code/tooManySessions`` or ``HostError/Code/tooManySubscribers``; nothing open is touched.
public struct HostLimits: Sendable, Hashable {
    /// Open sessions. An idle session of a shipped scenario costs about 11 KiB, so the default keeps a full
    /// daemon near 150 MiB.
    public var sessions: Int
    /// Open event streams of one session.
    public var subscribersPerSession: Int
    /// Open event streams across every session. Each buffers up to 1,024 events for
    /// a slow reader, so this bounds that memory too.
    public var subscribers: Int

    /// The daemon's defaults: 10,000 sessions, 64 event streams per session and 1,024 in all.
    public static let `default` = HostLimits(sessions: 10_000, subscribersPerSession: 64, subscribers: 1_024)

    /// Creates limits; each must be at least 1.
    public init(sessions: Int, subscribersPerSession: Int, subscribers: Int) {
        precondition(sessions >= 1 && subscribersPerSession >= 1 && subscribers >= 1, "every limit must be at least 1")
        self.sessions = sessions
        self.subscribersPerSession = subscribersPerSession
        self.subscribers = subscribers
    }
}
