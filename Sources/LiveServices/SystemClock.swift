public import Foundation
public import Services

/// The system's wall clock: what an application passes to a Model in production.
public struct SystemClock: ClockService {
    /// Creates the clock.
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
