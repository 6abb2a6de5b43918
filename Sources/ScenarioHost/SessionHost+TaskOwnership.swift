public import Fakes
import SessionRuntime

extension SessionHost {
    /// What this binary's sessions can own of their Models' work: each part tried once in a session of its own at
    /// the first call, and that answer kept for the process (the hooks do not change while it runs). A daemon asks
    /// at start, for `GET /v1/health` and for the metrics; a host under ``EscapePolicy/fail`` asks before its first
    /// session. The engine's module is the only one that reaches the session runtime, so servers ask here.
    public static func checkTaskOwnership() async -> TaskOwnershipCheck {
        await TaskOwnership.check()
    }
}
