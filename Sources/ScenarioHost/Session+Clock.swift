import ControlAPI
import Fakes
public import Foundation
import Logging
import ScenarioFormat
import Services
import SessionRuntime

// The session's virtual clock: reading it, moving it, and waking what waits on it.
extension Session {
    // MARK: Clock

    /// The session's clock.
    public func now() async throws(HostError) -> Date {
        try live().clock.now()
    }

    /// The earliest instant something sleeps until on the session's clock (a Model's timer, a delayed answer), or
    /// nil when nothing does.
    public func nextWake() throws(HostError) -> Date? {
        try live().clock.nextWake
    }

    /// Moves the clock forward, letting the Model do what falls due, and returns the new time.
    /// - Parameter play: The move continues a play (the dashboard's *Play*): the history keeps a play's moves made
    ///   one after another as one step.
    @discardableResult
    public func advanceClock(by duration: Duration, play: Bool = false) async throws(HostError) -> Date {
        try await moveClock(play ? .play(moves: [duration]) : .advanceClock(by: duration))
    }

    /// Sets the clock (forward wakes what falls due; backward wakes nothing) and returns the new time.
    @discardableResult
    public func setClock(to instant: Date) async throws(HostError) -> Date {
        try await moveClock(.setClock(to: instant))
    }

    /// The most timers one clock move may fire before it stops short.
    public static let wakeLimit = 10_000

    private func moveClock(_ change: SessionHistory.Change) async throws(HostError) -> Date {
        try admit("move the clock")
        let known = await takeTurn()
        defer { endTurn() }
        do {
            let now = try await moveClockNow(change, known: known)
            let escaped = reportEscapes(during: "the clock move")
            await remember(change)
            try failOnEscapes(escaped, during: "the clock move")
            return now
        } catch where error.code == .clockMoveTooLong {
            // The clock moved part of the way, deterministically: a replay moves it as far.
            let escaped = reportEscapes(during: "the clock move")
            await remember(change)
            try failOnEscapes(escaped, during: "the clock move")
            throw error
        }
    }

    /// Moves the clock, holding the turn already; `known` is the settled state before the move, kept when the move
    /// woke nothing (the Model did nothing, so there is nothing to encode again).
    func moveClockNow(_ change: SessionHistory.Change, known: ModelState? = nil) async throws(HostError) -> Date {
        let clock = try live().clock
        let wakesBefore = clock.wakeCount
        guard clock.isMovable else {
            throw HostError(.clockNotMovable, "session '\(id)' runs on the system clock (scenario '\(scenario.name)' says clock: system), which cannot be advanced or set; use a scenario with a frozen or running clock.")
        }
        var completed = true
        switch change {
        case .advanceClock(let duration): completed = await clock.advance(by: duration, wakeLimit: Self.wakeLimit)
        case .setClock(let instant): completed = await clock.set(to: instant, wakeLimit: Self.wakeLimit)
        case .play(let moves):
            // Each move as the client made it; one stopped short by the wake limit was followed by the next all the same.
            for move in moves {
                if await !clock.advance(by: move, wakeLimit: Self.wakeLimit) { completed = false }
            }
        default: preconditionFailure("only clock moves move the clock")
        }
        let now = clock.now()
        logger.info("clock moved to \(InstantText.format(now))")
        if let known, clock.wakeCount == wakesBefore {
            setSettledState(known)
        } else {
            try await publishStateIfChanged()
        }
        // Last, so that a watcher knows everything the move caused has been reported.
        events.publish(.clockMoved(now: now))
        guard completed else {
            throw HostError(.clockMoveTooLong, "moving the clock of session '\(id)' woke sleeping work \(Self.wakeLimit) times, the most one move may; it stopped at \(InstantText.format(now)). Move it in smaller steps.")
        }
        return now
    }
}
