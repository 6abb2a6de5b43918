public import Foundation

/// One request the network fake saw, and what became of it: the unit of a session's journal.
public struct NetworkExchange: Sendable, Hashable, Codable {
    /// 1, 2, 3… in the order requests arrived in this session (reset with the session).
    public var sequence: Int
    /// When the request arrived, on the session's clock.
    public var time: Date
    /// The HTTP method.
    public var method: String
    /// The full URL, query included.
    public var url: String
    /// The request's header fields, in order, as `name: value` lines.
    public var headers: [String]
    /// The request body as UTF-8 text (invalid bytes replaced), or nil when empty. A JSON body is kept in its
    /// canonical form (keys sorted, no insignificant whitespace), so an encoder's key order never reads as a
    /// difference; ``sentBody`` keeps the text as sent.
    public var body: String?
    /// The body as the Model sent it, when that text differs from ``body`` (a JSON body in another key order or
    /// spacing); nil otherwise. Determinism checks compare ``body``, not this.
    public var sentBody: String?
    /// The route that answered, or nil when none matched.
    public var route: String?
    /// The status the route answered with, when it answered with a response.
    public var status: Int?
    /// The transport error the request got instead of a response, when it got one.
    public var fault: String?
    /// For an unmatched request, the closest routes first, each with the first field that differed.
    public var nearMisses: [NearMiss]?
    /// True when the request went to the live network (a live route, or a live or record scenario).
    public var live: Bool?
    /// For an interaction with a service the team defines (not an HTTP request), the service's name; `method` is
    /// then the operation, `url` is `service:NAME` and `body` what it carried.
    public var service: String?
    /// For a service interaction, what became of it, in the fake's words.
    public var outcome: String?
    /// For an answer that waits on the session's clock (a route's `delay`): true until it is delivered, then false;
    /// absent for an answer given at once. `status` or `fault` says what it will be, or was.
    public var pending: Bool?
    /// For an answer that waits on the session's clock, the instant on that clock when it is delivered.
    public var deliversAt: Date?
    /// True when the route that answered is one a test gave this session (an override), not the scenario's.
    public var override: Bool?
    /// The network conditions the session was switched into that answered instead of a route (`offline`,
    /// `fault timeout`) or delayed the answer (`delay 2s`).
    public var condition: String?
    /// For a streamed answer (server-sent events, a chunked body), what it has delivered so far and how it stands.
    public var stream: StreamTranscript?
    /// True when a client sent the request through the session's network from outside (`POST
    /// /v1/sessions/{id}/network/requests`, `scenarioctl send`), not the Model; absent for the Model's requests.
    public var outside: Bool?

    /// Creates the record of a request as it arrives; what became of it is filled in after.
    public init(sequence: Int, time: Date, method: String, url: String, headers: [String], body: String?,
                route: String? = nil, status: Int? = nil, fault: String? = nil, nearMisses: [NearMiss]? = nil, live: Bool? = nil,
                service: String? = nil, outcome: String? = nil) {
        self.sequence = sequence
        self.time = time
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.route = route
        self.status = status
        self.fault = fault
        self.nearMisses = nearMisses
        self.live = live
        self.service = service
        self.outcome = outcome
    }

    /// Whether no route matched this request and it did not go to the live network either.
    public var isUnmatched: Bool { route == nil && live != true && service == nil && condition == nil }
}

/// A route that almost matched a request, and where it first differed.
public struct NearMiss: Sendable, Hashable, Codable {
    /// The field that differed and both values.
    public struct Difference: Sendable, Hashable, Codable {
        /// `method`, `url`, `query.NAME`, `headers.NAME`, `body` (not JSON, or empty) or `body/JSON/POINTER` (the field that differed).
        public var field: String
        /// What the route asked for.
        public var expected: String
        /// What the request had.
        public var actual: String

        /// Creates a difference.
        public init(field: String, expected: String, actual: String) {
            self.field = field
            self.expected = expected
            self.actual = actual
        }
    }

    /// The route's name.
    public var route: String
    /// The first field that differed, as a JSON pointer into the request: `/method`, `/url`, `/query/page`,
    /// `/headers/authorization` (header names in lower case), `/body`, or a place in the body (`/body/user`).
    public var field: String
    /// What the route asked for.
    public var expected: String
    /// What the request had.
    public var actual: String

    /// `closest route 'feed' differs in /url: expected …, got …`: the one wording logs, the CLI and test failures use.
    public var explanation: String {
        "closest route '\(route)' differs in \(field): expected \(expected), got \(actual)"
    }

    /// This near miss as logs may show it: a secret body field's value (``JSONValue/secretFieldNames``), or a
    /// secret query item's or header's, reads `<redacted>`.
    public func redactingSecrets() -> NearMiss {
        var copy = self
        let tokens = field.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(JSONValue.name(ofPointerToken:))
        if tokens.first == "body", tokens.dropFirst().contains(where: JSONValue.isSecretField) {
            // A body field on the list, or inside one (/body/password, /body/credentials/token).
            copy.expected = "<redacted>"
            copy.actual = "<redacted>"
        } else if tokens.first == "body" {
            for keyPath in [\NearMiss.expected, \NearMiss.actual] {
                if let json = try? JSONValue(json: Data(copy[keyPath: keyPath].utf8)) {
                    copy[keyPath: keyPath] = String(decoding: json.redactingSecrets(replacement: "<redacted>").value.jsonData, as: UTF8.self)
                }
            }
        } else if ["query", "headers"].contains(tokens.first), let name = tokens.dropFirst().first,
                  JSONValue.isSecretField(name) || name.lowercased() == "cookie" {
            copy.expected = "<redacted>"
            copy.actual = "<redacted>"
        }
        return copy
    }

    /// Creates a near miss.
    public init(route: String, field: String, expected: String, actual: String) {
        self.route = route
        self.field = field
        self.expected = expected
        self.actual = actual
    }
}
