// swift-argument-parser and swift-log in the daemon's API: a team's own command embeds these options with
// @OptionGroup, and its daemon logs through a Logger it may configure.
public import ArgumentParser
public import Logging
public import Systemd
public import ScenarioHost

/// Everything a daemon takes from its command line: where scenarios, state and the socket are, the default
/// session, logging, access and limits. ``Daemon/main(name:version:models:services:)`` parses it; a team that owns `main`
/// makes one with ``init(arguments:)`` or ``init()`` and sets its properties.
public struct DaemonOptions: ParsableArguments, Sendable {
    /// Directories of scenario directories; later ones override earlier ones. Empty: the daemon's defaults.
    @Option(name: .customLong("scenarios"), help: ArgumentHelp("A directory of scenario directories; repeat it, later ones override.", valueName: "dir"))
    public var scenarioDirectories: [String] = []

    /// Where durable key-value stores and recorded scenarios are kept. `nil`: the daemon's default.
    @Option(name: .customLong("state-directory"), help: ArgumentHelp("Where durable key-value stores and recorded scenarios are kept.", valueName: "dir"))
    public var stateDirectory: String?

    /// The control socket to create. `nil`: the daemon's default (or the socket systemd passes).
    @Option(help: ArgumentHelp("The control socket to create.", valueName: "path"))
    public var socket: String?

    /// A scenario whose session, id `default`, opens at start-up.
    @Option(help: ArgumentHelp("Open a default session (id 'default') of this scenario at start-up.", valueName: "name"))
    public var scenario: String?

    /// Where logs go (used by ``Daemon/main(name:version:models:services:)``, which owns the logging system).
    @Option(name: .customLong("log-target"), help: "Where logs go: journal, stderr or auto (the journal when stderr is connected to it).")
    public var logTarget: LogTarget = .auto

    /// The lowest level logged (used by ``Daemon/main(name:version:models:services:)``).
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    public var logLevel: Logger.Level = .info

    /// Requests each session's journal keeps before dropping the oldest.
    @Option(name: .customLong("journal-capacity"), help: "Requests each session's journal keeps before dropping the oldest.")
    public var journalCapacity: Int = RequestJournal.defaultCapacity

    /// User ids allowed to use the socket; with any of these or ``allowedGroups``, everyone else gets 403.
    @Option(name: .customLong("allow-uid"), help: ArgumentHelp("Allow this user id to use the socket; repeat it. With any --allow-uid or --allow-group, everyone else gets 403.", valueName: "uid"))
    public var allowedUIDs: [UInt32] = []

    /// Groups (names or ids) whose members may use the socket.
    @Option(name: .customLong("allow-group"), help: ArgumentHelp("Allow members of this group (name or id) to use the socket; repeat it.", valueName: "group"))
    public var allowedGroups: [String] = []

    /// How long a connection may take to send a complete request head (idle or dripping) before it is closed.
    @Option(name: .customLong("request-timeout"), help: ArgumentHelp("Close a connection that sends no complete request head for this long (idle or dripping).", valueName: "duration"))
    public var requestTimeout: String = "30s"

    /// How long a request's body may take to arrive whole once its head has; past it the request gets 408.
    @Option(name: .customLong("body-timeout"), help: ArgumentHelp("Answer 408 and close a connection whose request body has not arrived whole this long after its head.", valueName: "duration"))
    public var bodyTimeout: String = "30s"

    /// Sessions clients may hold open at once; past it, creating one is refused with 429 `tooManySessions`.
    @Option(name: .customLong("max-sessions"), help: ArgumentHelp("Refuse to open more sessions than this at once (429 tooManySessions).", valueName: "n"))
    public var maxSessions: Int = HostLimits.default.sessions

    /// Event streams one session may have open at once; past it, 429 `tooManySubscribers`.
    @Option(name: .customLong("max-subscribers-per-session"), help: ArgumentHelp("Refuse more event streams of one session than this (429 tooManySubscribers).", valueName: "n"))
    public var maxSubscribersPerSession: Int = HostLimits.default.subscribersPerSession

    /// Event streams open across all sessions; past it, 429 `tooManySubscribers`.
    @Option(name: .customLong("max-subscribers"), help: ArgumentHelp("Refuse more event streams in all than this (429 tooManySubscribers).", valueName: "n"))
    public var maxSubscribers: Int = HostLimits.default.subscribers

    /// Explorations (`POST /v1/explorations`) running at once; past it, 429 `tooManyExplorations`.
    @Option(name: .customLong("max-explorations"), help: ArgumentHelp("Refuse to run more explorations than this at once (429 tooManyExplorations).", valueName: "n"))
    public var maxExplorations: Int = 4

    /// Steps (walks × steps per walk) one exploration may ask for; past it, 422 `explorationTooLong`.
    @Option(name: .customLong("max-exploration-steps"), help: ArgumentHelp("Refuse an exploration of more steps than this, walks × steps (422 explorationTooLong).", valueName: "n"))
    public var maxExplorationSteps: Int = 10_000_000

    /// Bytes each session's journal keeps (bodies and kept stream chunks included) before dropping its oldest entries.
    @Option(name: .customLong("journal-bytes"), help: ArgumentHelp("Bytes each session's journal keeps before dropping its oldest entries (as 16MiB, 512KiB).", valueName: "size"))
    public var journalBytes: String = "16MiB"

    /// Bytes each session's history keeps; past it the session keeps no further step and cannot be rewound.
    @Option(name: .customLong("history-bytes"), help: ArgumentHelp("Bytes each session's history keeps; past it no further step is kept and the session cannot be rewound.", valueName: "size"))
    public var historyBytes: String = "16MiB"

    /// Bytes one event stream holds for a reader that fell behind before dropping its oldest events.
    @Option(name: .customLong("event-buffer-bytes"), help: ArgumentHelp("Bytes one event stream holds for a slow reader before dropping its oldest events (the reader is told: event: gap).", valueName: "size"))
    public var eventBufferBytes: String = "16MiB"

    /// Bytes one recording session keeps; past it the recording is let go of and cannot be saved.
    @Option(name: .customLong("recording-bytes"), help: ArgumentHelp("Bytes a recording session keeps; past it requests are still forwarded but the recording cannot be saved.", valueName: "size"))
    public var recordingBytes: String = "256MiB"

    /// Bytes all sessions' stores may hold together; past it new work is refused with 429 `tooMuchHeld`.
    @Option(name: .customLong("max-held-bytes"), help: ArgumentHelp("Refuse new work (sessions, actions, clock moves, writes) while all sessions hold this much (429 tooMuchHeld).", valueName: "size"))
    public var maxHeldBytes: String = "2GiB"

    /// What a Model's escape from its session does: `warn` (report it; a demo goes on) or `fail` (the step that
    /// escaped fails with 409 `modelEscaped`, as a test wants).
    @Option(name: .customLong("model-escapes"), help: ArgumentHelp("warn: report work a Model does outside its session (a Task.detached, a wall-clock sleep) and go on; fail: also fail the step with 409 modelEscaped, as tests want.", valueName: "warn|fail"))
    public var modelEscapes: EscapePolicy = .warn

    /// Stop when the process that started the daemon exits (for test runs).
    @Flag(name: .customLong("exit-with-parent"), help: "Stop when the process that started the daemon exits (for test runs).")
    public var exitWithParent = false

    /// Options with every default.
    public init() {}

    /// Options read from command-line arguments (`["--scenario", "demo"]`), as the daemon's own command line
    /// reads them.
    /// - Throws: an error naming the argument that is wrong.
    public init(arguments: [String]) throws {
        self = try Self.parse(arguments)
    }
}

extension LogTarget: ExpressibleByArgument {}
extension EscapePolicy: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
