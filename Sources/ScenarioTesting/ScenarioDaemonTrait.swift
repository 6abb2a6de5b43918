#if canImport(Testing)
// Swift Testing in ScenarioTesting's API: the trait is how a suite names its daemon.
public import Testing
import Services
import Synchronization

/// A Swift Testing trait that names a suite's daemon once: every ``withScenario(_:id:overriding:endpoint:daemon:_:)`` (and
/// ``expectDeterministic(_:overriding:daemon:_:)``) in the suite, its nested suites and their tests uses it unless
/// given another `daemon:`.
///
/// ```swift
/// @Suite(.scenarioDaemon(executable: "todod")) struct NotificationTests {
///     @Test func anOverdueItemIsNotAnnouncedWhenNotificationsAreOff() async throws {
///         try await withScenario("todo-notifications-off") { session in … }
///     }
/// }
/// ```
///
/// The daemon starts when the suite's first test needs it, once for the suite, and is shared by its tests, which
/// run in parallel, each in its own session.
public struct ScenarioDaemonTrait: SuiteTrait, TestTrait, TestScoping {
    private let daemon: LazyDaemon

    fileprivate init(_ start: @escaping @Sendable () async throws -> TestDaemon) {
        daemon = LazyDaemon(start: start)
    }

    /// The trait reaches every test in the suite.
    public var isRecursive: Bool { true }

    /// Runs the test with ``TestDaemon/current`` set to the suite's daemon.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let daemon = try await daemon.value
        try await TestDaemon.$current.withValue(daemon) { try await function() }
    }
}

extension Trait where Self == ScenarioDaemonTrait {
    /// The suite's tests use the daemon `start` returns, started when the first needs it:
    /// `.scenarioDaemon { try TestDaemon.inProcess(models: [TodoList.self]) }`.
    public static func scenarioDaemon(_ start: @escaping @Sendable () async throws -> TestDaemon) -> Self {
        ScenarioDaemonTrait(start)
    }

    /// The suite's tests use a daemon process of `executable` (a team's own, such as `todod`, found beside the
    /// tests, then on `PATH`; or a path), as ``TestDaemon/startOrConnect(executable:environment:)`` starts it:
    /// `$SCENARIOD_SOCKET` and `$SCENARIOD_DAEMON`, when set, still win, so a run can point every suite elsewhere.
    public static func scenarioDaemon(executable: String) -> Self {
        ScenarioDaemonTrait { try await TestDaemon.startOrConnect(executable: executable) }
    }
}

/// The suite's daemon, started on first use; the trait is copied to each test, and every copy shares this.
private final class LazyDaemon: Sendable {
    private let start: @Sendable () async throws -> TestDaemon
    private let task = Mutex<Task<TestDaemon, any Error>?>(nil)

    init(start: @escaping @Sendable () async throws -> TestDaemon) {
        self.start = start
    }

    var value: TestDaemon {
        get async throws {
            let running = task.withCheckedLock { task in
                if let task { return task }
                let started = Task { try await start() }
                task = started
                return started
            }
            return try await running.value
        }
    }
}
#endif
