package import ControlAPI
public import Foundation

/// A session's virtual clock.
extension ControlClient {
    /// The time on the session's clock.
    public func clock(session: String = defaultSession) async throws -> Date {
        try await clockBody(session: session).now
    }
    /// The earliest instant something sleeps until on the session's clock (a Model's timer, a delayed answer), or
    /// nil when nothing does: moving the clock there, and on from there, shows every state the Model passes through.
    public func nextWake(session: String = defaultSession) async throws -> Date? {
        try await clockBody(session: session).nextWake
    }
    /// Advances by a duration such as `15m` or `2s` and returns the new time; `play` keeps a run of such moves as one
    /// step of the history (as the dashboard's *Play* does).
    public func advanceClock(by duration: String, play: Bool = false, session: String = defaultSession) async throws -> Date {
        try await advanceClockBody(by: duration, play: play, session: session).now
    }
    /// Sets the session's clock to `instant` and returns the new time. Moving forward wakes what falls due, as
    /// ``advanceClock(by:play:session:)`` does; moving back wakes nothing.
    public func setClock(to instant: Date, session: String = defaultSession) async throws -> Date {
        try await setClockBody(to: instant, session: session).now
    }

    // The clock as each call answers it, the time and the next wake together: `scenarioctl clock --json` prints
    // both from the one answer, rather than ask for the next wake again.
    package func clockBody(session: String = defaultSession) async throws -> ClockBody {
        try await get(sessionPath(session, "/clock"))
    }
    package func advanceClockBody(by duration: String, play: Bool = false, session: String = defaultSession) async throws -> ClockBody {
        try await send("POST", sessionPath(session, "/clock/advance"), body: AdvanceClockRequest(by: duration, play: play ? true : nil))
    }
    package func setClockBody(to instant: Date, session: String = defaultSession) async throws -> ClockBody {
        try await send("PUT", sessionPath(session, "/clock"), body: SetClockRequest(now: instant))
    }
}
