import ServiceLifecycle
import UnixSignals

/// Re-reads the scenarios on each SIGHUP until shutdown. Created before READY=1, so no SIGHUP is missed.
struct ReloadService: Service, CustomStringConvertible {
    var description: String { "ReloadService" }

    let reloader: ScenarioReloader
    private let signals: UnixSignalsSequence

    init(reloader: ScenarioReloader) async {
        self.reloader = reloader
        self.signals = await UnixSignalsSequence(trapping: .sighup)
    }

    func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            _ = await reloader.reload()
        }
    }
}
