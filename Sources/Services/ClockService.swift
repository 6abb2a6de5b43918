public import Foundation

/// Wall-clock time and sleeping. A Model never reads `Date()` or sleeps on its own, so a fake can own time.
public protocol ClockService: Sendable {
    /// The current instant.
    func now() async -> Date
    /// Suspends the caller until `duration` has passed on this clock.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    func sleep(for duration: Duration) async throws
}
