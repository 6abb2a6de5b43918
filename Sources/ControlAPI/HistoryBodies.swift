public import Foundation
public import Services

/// `GET /v1/sessions/{id}/history`: what clients did to the session since it started, step by step.
public struct HistoryBody: Codable, Sendable, Hashable {
    /// One change, the virtual time once it had settled, and the requests it caused.
    public struct Step: Codable, Sendable, Hashable {
        /// 0 for the start, then 1, 2…; `POST …/rewind` takes it.
        public var step: Int
        /// `start`, `action`, `advanceClock`, `playClock` (a play's moves, one after another), `setClock`, `setKeyValue`, `removeKeyValue`, `replaceServiceState`,
        /// `patchServiceState` (a JSON merge patch of a service's state), `setRoute`, `removeRoute`, `setNetworkConditions`, `clearJournal` or `reset`.
        public var kind: String
        /// One line for people: `action markRead {"id":"…"}`, `advance the clock by 2s`.
        public var summary: String
        /// What the change was given, as its request said it (an action's name and arguments, a key and value…).
        public var parameters: [String: JSONValue]
        /// The session's virtual time once the change had settled.
        public var time: Date
        /// The journal sequence numbers of the requests it caused.
        public var requests: [Int]

        /// A step as the daemon reports it.
        public init(step: Int, kind: String, summary: String, parameters: [String: JSONValue], time: Date, requests: [Int]) {
            self.step = step
            self.kind = kind
            self.summary = summary
            self.parameters = parameters
            self.time = time
            self.requests = requests
        }
    }

    /// The session's id.
    public var session: String
    /// Why the session cannot be rewound; absent when it can.
    public var notRewindable: String?
    /// Every step kept, oldest first: step 0, the start, then each change.
    public var steps: [Step]

    /// A history as the daemon reports it.
    public init(session: String, notRewindable: String?, steps: [Step]) {
        self.session = session
        self.notRewindable = notRewindable
        self.steps = steps
    }
}

/// The data of a `historyChanged` event.
public struct HistoryChangedBody: Codable, Sendable, Hashable {
    /// The number of the history's newest step; after a rewind, an earlier one than before.
    public var newestStep: Int
    /// The data of a `historyChanged` event whose newest step is `newestStep`.
    public init(newestStep: Int) { self.newestStep = newestStep }
}

/// `POST /v1/sessions/{id}/rewind`.
public struct RewindRequest: Codable, Sendable, Hashable {
    /// The step after which the session should stand (0: its start).
    public var step: Int
    /// A request to rewind to just after `step`.
    public init(step: Int) { self.step = step }
}
