import Foundation
import Services
import Synchronization

/// The secrets of one `scenarioctl dashboard` run: one-use links that open a tab, and the tabs' own tokens.
///
/// A link's token sits in a URL the browser writes into its history database, where it outlives the run's tab, so
/// it only opens one tab: the page trades it at once for a tab token that lives in the tab's memory alone, and a
/// copy of the URL found later opens nothing. The printed link is replaced by a new one (printed too) as soon as it
/// is used; a tab mints links for more tabs ("Open in a new tab"), which expire unused after a few minutes.
/// A mutex, not an actor: the responder checks a token synchronously on every request.
final class DashboardTokens: Sendable {
    private struct State {
        var printed: String
        /// Links a tab minted, with when each stops opening anything.
        var minted: [String: ContinuousClock.Instant] = [:]
        /// Tab tokens, the one used longest ago first: it is forgotten when there are too many.
        var tabs: [String] = []

        /// Forgets the minted links that expired unused.
        mutating func dropExpired(at now: ContinuousClock.Instant) {
            minted = minted.filter { $0.value > now }
        }
    }

    /// A tab minted link opens a tab for this long; the page uses it at once.
    static let mintedLifetime = Duration.seconds(300)
    /// Bounds what a page that mints in a loop can make the bridge hold.
    static let mintedLimit = 64
    static let tabLimit = 256

    private let state: Mutex<State>
    /// Called with the new printed link's token when a tab used the previous one.
    private let printedUsed: @Sendable (String) -> Void

    /// The printed link's token.
    var printed: String { state.withCheckedLock { $0.printed } }

    init(printedUsed: @escaping @Sendable (String) -> Void) {
        state = Mutex(State(printed: Self.fresh()))
        self.printedUsed = printedUsed
    }

    /// The token of a new tab, for a link's token that has not opened one yet; nil for any other text.
    func openTab(with link: String) -> String? {
        let now = ContinuousClock.now
        let (tab, newPrinted): (String?, String?) = state.withCheckedLock { state in
            state.dropExpired(at: now)
            let newPrinted: String?
            if Self.same(link, state.printed) {
                state.printed = Self.fresh()
                newPrinted = state.printed
            } else if let key = state.minted.keys.first(where: { Self.same(link, $0) }) {
                state.minted[key] = nil
                newPrinted = nil
            } else {
                return (nil, nil)
            }
            let tab = Self.fresh()
            state.tabs.append(tab)
            if state.tabs.count > Self.tabLimit { state.tabs.removeFirst(state.tabs.count - Self.tabLimit) }
            return (tab, newPrinted)
        }
        if let newPrinted { printedUsed(newPrinted) }
        return tab
    }

    /// Whether a text is the token of a tab this run opened; a tab in use is the last to be forgotten.
    func isTab(_ token: String) -> Bool {
        state.withCheckedLock { state in
            guard let index = state.tabs.firstIndex(where: { Self.same(token, $0) }) else { return false }
            state.tabs.append(state.tabs.remove(at: index))
            return true
        }
    }

    /// A new one-use link's token, for a tab that opens another.
    func mintLink() -> String {
        let now = ContinuousClock.now
        return state.withCheckedLock { state in
            state.dropExpired(at: now)
            if state.minted.count >= Self.mintedLimit, let oldest = state.minted.min(by: { $0.value < $1.value }) {
                state.minted[oldest.key] = nil
            }
            let link = Self.fresh()
            state.minted[link] = now + Self.mintedLifetime
            return link
        }
    }

    /// 32 bytes from the system's generator (getrandom), which is fit for secrets.
    private static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Compares in time that does not depend on where the texts differ, so a token cannot be guessed by timing.
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
