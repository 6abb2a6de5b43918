import ControlAPI
import Foundation
import Testing
import Yams

/// The server agrees with openapi/scenariod.yaml: every operation in the document is exercised here, and every
/// answer (status, content type, body schema) is checked against the document by scripts/check-openapi.py.
@Suite(.serialized) struct OpenAPIAgreementTests {
    struct Exchange: Codable {
        var operationId: String
        var status: Int
        var contentType: String
        var body: String
    }

    struct Call: Sendable, CustomTestStringConvertible {
        var operationId: String
        var method: String
        var path: String
        var body: String?
        /// The body's media type; `application/json` unless given.
        var contentType: String?
        var status: Int
        var code: String?
        var testDescription: String { "\(method) \(path) → \(status)\(code.map { " \($0)" } ?? "")" }

        init(operationId: String, method: String, path: String, body: String? = nil, contentType: String? = nil, status: Int, code: String? = nil) {
            self.operationId = operationId
            self.method = method
            self.path = path
            self.body = body
            self.contentType = contentType
            self.status = status
            self.code = code
        }
    }

    /// Successful calls, in an order where each finds what it needs (session s1 of offline-demo exists).
    static let calls: [Call] = [
        Call(operationId: "getHealth", method: "GET", path: "/v1/health", status: 200),
        Call(operationId: "getMetrics", method: "GET", path: "/metrics", status: 200),
        Call(operationId: "getDashboard", method: "GET", path: "/dashboard", status: 200),
        Call(operationId: "getDashboardAsset", method: "GET", path: "/dashboard/app.js", status: 200),
        Call(operationId: "getDashboardAsset", method: "GET", path: "/dashboard/style.css", status: 200),
        Call(operationId: "getDashboardAsset", method: "GET", path: "/dashboard/icon.svg", status: 200),
        Call(operationId: "getDashboardAsset", method: "GET", path: "/dashboard/session-journal.js", status: 200),
        Call(operationId: "getVersion", method: "GET", path: "/v1/version", status: 200),
        Call(operationId: "listModels", method: "GET", path: "/v1/models", status: 200),
        Call(operationId: "listScenarios", method: "GET", path: "/v1/scenarios", status: 200),
        Call(operationId: "showScenario", method: "GET", path: "/v1/scenarios/ratings-expired-token", status: 200),
        Call(operationId: "showScenarioFile", method: "GET", path: "/v1/scenarios/ratings-expired-token/file", status: 200),
        Call(operationId: "reloadScenarios", method: "POST", path: "/v1/scenarios/reload", status: 200),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline-demo","id":"s1"}"#, status: 201),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline"}"#, status: 201),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline","id":"ov1","overrides":{"clock":{"start":"2027-01-01T00:00:00Z"}}}"#, status: 201),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline","id":"ep1","endpoint":{"port":0,"origin":"https://www.cocoawithlove.com"}}"#, status: 201),
        Call(operationId: "showSession", method: "GET", path: "/v1/sessions/ep1", status: 200),
        Call(operationId: "deleteSession", method: "DELETE", path: "/v1/sessions/ep1", status: 204),
        Call(operationId: "listSessions", method: "GET", path: "/v1/sessions", status: 200),
        Call(operationId: "showSession", method: "GET", path: "/v1/sessions/s1", status: 200),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/reload", status: 200),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/setIsRead",
             body: #"{"url":"https://www.cocoawithlove.com/blog/mock-views.html","value":true}"#, status: 200),
        Call(operationId: "getState", method: "GET", path: "/v1/sessions/s1/state", status: 200),
        Call(operationId: "getClock", method: "GET", path: "/v1/sessions/s1/clock", status: 200),
        Call(operationId: "advanceClock", method: "POST", path: "/v1/sessions/s1/clock/advance", body: #"{"by":"15m"}"#, status: 200),
        Call(operationId: "setClock", method: "PUT", path: "/v1/sessions/s1/clock", body: #"{"now":"2026-11-02T00:00:00Z"}"#, status: 200),
        Call(operationId: "listKeys", method: "GET", path: "/v1/sessions/s1/kv", status: 200),
        Call(operationId: "putKey", method: "PUT", path: "/v1/sessions/s1/kv/note", body: #"{"a":[1,2]}"#, status: 200),
        Call(operationId: "getKey", method: "GET", path: "/v1/sessions/s1/kv/note", status: 200),
        Call(operationId: "deleteKey", method: "DELETE", path: "/v1/sessions/s1/kv/note", status: 204),
        Call(operationId: "listServices", method: "GET", path: "/v1/sessions/s1/services", status: 200),
        Call(operationId: "listJournal", method: "GET", path: "/v1/sessions/s1/journal", status: 200),
        Call(operationId: "listUnmatched", method: "GET", path: "/v1/sessions/offline-1/journal/unmatched", status: 200),
        Call(operationId: "countRequests", method: "GET", path: "/v1/sessions/offline-1/journal/counts", status: 200),
        Call(operationId: "setNetworkConditions", method: "PUT", path: "/v1/sessions/s1/network/conditions", body: #"{"offline":true,"delay":"2s"}"#, status: 200),
        Call(operationId: "getNetworkConditions", method: "GET", path: "/v1/sessions/s1/network/conditions", status: 200),
        Call(operationId: "setNetworkConditions", method: "PUT", path: "/v1/sessions/s1/network/conditions", body: "{}", status: 200),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests",
             body: #"{"url":"https://www.cocoawithlove.com/feed.json","headers":["Accept: application/json"]}"#, status: 200),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests",
             body: #"{"method":"POST","url":"https://x.example/none","bodyBase64":"AAEC"}"#, status: 200),
        // slow-network's feed answers after 2 s of its clock: its start's request is 1, the one sent here 2.
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"slow-network","id":"or1"}"#, status: 201),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/or1/network/requests",
             body: #"{"url":"https://www.cocoawithlove.com/feed.json","wait":false}"#, status: 202),
        Call(operationId: "getSentRequest", method: "GET", path: "/v1/sessions/or1/network/requests/2", status: 202),
        Call(operationId: "advanceClock", method: "POST", path: "/v1/sessions/or1/clock/advance", body: #"{"by":"2s"}"#, status: 200),
        Call(operationId: "getSentRequest", method: "GET", path: "/v1/sessions/or1/network/requests/2", status: 200),
        Call(operationId: "getHistory", method: "GET", path: "/v1/sessions/or1/history", status: 200),
        Call(operationId: "setRoute", method: "PUT", path: "/v1/sessions/s1/routes/extra", body: #"{"request":{"method":"GET","url":"https://x.example/a"},"response":{"status":204}}"#, status: 204),
        Call(operationId: "removeRoute", method: "DELETE", path: "/v1/sessions/s1/routes/extra", status: 204),
        Call(operationId: "clearJournal", method: "POST", path: "/v1/sessions/s1/journal/clear", status: 204),
        Call(operationId: "getHistory", method: "GET", path: "/v1/sessions/s1/history", status: 200),
        Call(operationId: "rewindSession", method: "POST", path: "/v1/sessions/s1/rewind", body: #"{"step":2}"#, status: 200),
        Call(operationId: "saveSession", method: "POST", path: "/v1/sessions/s1/save", body: #"{"name":"agreement-saved"}"#, status: 201),
        Call(operationId: "resetSession", method: "POST", path: "/v1/sessions/s1/reset", status: 200),
        Call(operationId: "deleteSession", method: "DELETE", path: "/v1/sessions/offline-1", status: 204),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"agreement-record","id":"rec1"}"#, status: 201),
        Call(operationId: "saveRecording", method: "POST", path: "/v1/sessions/rec1/recording", body: #"{"name":"agreement-recorded"}"#, status: 201),
        // A reply that stalls after its first event: open, listed, pushed into, then closed with a fault.
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"assistant-stalled","id":"as1"}"#, status: 201),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/as1/actions/send", body: #"{"text":"Hi"}"#, status: 200),
        Call(operationId: "advanceClock", method: "POST", path: "/v1/sessions/as1/clock/advance", body: #"{"by":"1s"}"#, status: 200),
        Call(operationId: "listStreams", method: "GET", path: "/v1/sessions/as1/streams", status: 200),
        Call(operationId: "pushToStream", method: "POST", path: "/v1/sessions/as1/streams/2/push",
             body: #"{"event":"token","id":"2","data":"{\"text\":\" hard\"}"}"#, status: 200),
        Call(operationId: "pushToStream", method: "POST", path: "/v1/sessions/as1/streams/2/push", body: #"{"text":": a comment\n\n"}"#, status: 200),
        Call(operationId: "listJournal", method: "GET", path: "/v1/sessions/as1/journal", status: 200),
        Call(operationId: "closeStream", method: "POST", path: "/v1/sessions/as1/streams/2/close", body: #"{"fault":"timeout"}"#, status: 200),
        Call(operationId: "listJournal", method: "GET", path: "/v1/sessions/as1/journal", status: 200),
        // Stream 1 is the Assistant's presence WebSocket: the server closes it with a frame.
        Call(operationId: "closeStream", method: "POST", path: "/v1/sessions/as1/streams/1/close", body: #"{"code":4001,"reason":"maintenance"}"#, status: 200),
        Call(operationId: "listJournal", method: "GET", path: "/v1/sessions/as1/journal", status: 200),
        // An exploration that holds and one that fails, each followed to its end and then read, so both reports
        // (the second with its shrunk failure) are checked against the document.
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations", body: #"{"scenario":"offline-demo","walks":3,"steps":4,"seed":5}"#, status: 201),
        Call(operationId: "followExploration", method: "GET", path: "/v1/explorations/x1/events", status: 200),
        Call(operationId: "showExploration", method: "GET", path: "/v1/explorations/x1", status: 200),
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations",
             body: #"{"scenario":"offline-demo","walks":2,"steps":3,"properties":{"file":"p.yaml","text":"always:\n  - /items/0/title == \"never\"\n"}}"#, status: 201),
        Call(operationId: "followExploration", method: "GET", path: "/v1/explorations/x2/events", status: 200),
        Call(operationId: "listExplorations", method: "GET", path: "/v1/explorations", status: 200),
        Call(operationId: "cancelExploration", method: "DELETE", path: "/v1/explorations/x2", status: 200),
    ]

    /// A recording scenario on the system clock whose requests go to a loopback port nothing listens on
    /// (port 1), so recording never leaves the machine: it records a refused connection.
    static let recordScenario = """
        description: Records FeedReader; the feed's origin is sent to a closed loopback port.
        model: FeedReader
        clock: system
        network:
          mode: record
          forward:
            https://www.cocoawithlove.com: http://127.0.0.1:1
        """

    /// Bad requests, each answered with the documented status and error code.
    static let refusals: [Call] = [
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests", body: #"{"url":"notaurl"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests", body: #"{"url":"https://a.example/","method":"G ET"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests", body: #"{"url":"https://a.example/","headers":["no colon"]}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests", body: #"{"url":"https://a.example/","body":"x","bodyBase64":"eA=="}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests", body: #"{"url":"https://a.example/","bodyBase64":"!!"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/s1/network/requests", body: #"{"method":"GET"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "sendRequest", method: "POST", path: "/v1/sessions/nope/network/requests", body: #"{"url":"https://a.example/"}"#, status: 404, code: "unknownSession"),
        Call(operationId: "getSentRequest", method: "GET", path: "/v1/sessions/s1/network/requests/99", status: 404, code: "unknownRequest"),
        Call(operationId: "getSentRequest", method: "GET", path: "/v1/sessions/s1/network/requests/abc", status: 400, code: "invalidRequest"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario": "#, status: 400, code: "malformedJSON"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"["offline"]"#, status: 400, code: "invalidRequest"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":42}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"id":"x"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline","endpoint":{"prot":0}}"#, status: 400, code: "unknownField"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline","endpoint":{"port":70000}}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline","colour":"red"}"#, status: 400, code: "unknownField"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline","id":"../etc"}"#, status: 400, code: "invalidSessionID"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline-demo","id":"s1"}"#, status: 409, code: "sessionExists"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"no-such"}"#, status: 404, code: "unknownScenario"),
        Call(operationId: "showScenario", method: "GET", path: "/v1/scenarios/no-such", status: 404, code: "unknownScenario"),
        Call(operationId: "showScenarioFile", method: "GET", path: "/v1/scenarios/no-such/file", status: 404, code: "unknownScenario"),
        Call(operationId: "showSession", method: "GET", path: "/v1/sessions/no-such", status: 404, code: "unknownSession"),
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations", body: #"{"scenario":"no-such"}"#, status: 404, code: "unknownScenario"),
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations", body: #"{"scenario":"offline-demo","walks":0}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations", body: #"{"scenario":"offline-demo","walks":100000000,"steps":1000}"#, status: 422, code: "explorationTooLong"),
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations", body: #"{"scenario":"offline-demo","colour":1}"#, status: 400, code: "unknownField"),
        Call(operationId: "startExploration", method: "POST", path: "/v1/explorations",
             body: #"{"scenario":"offline-demo","properties":{"file":"p.yaml","text":"always: [\"/items ==\"]"}}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "showExploration", method: "GET", path: "/v1/explorations/x99", status: 404, code: "unknownExploration"),
        Call(operationId: "cancelExploration", method: "DELETE", path: "/v1/explorations/x99", status: 404, code: "unknownExploration"),
        Call(operationId: "getDashboardAsset", method: "GET", path: "/dashboard/missing.js", status: 404, code: "noSuchEndpoint"),
        Call(operationId: "deleteSession", method: "DELETE", path: "/v1/sessions/no-such", status: 404, code: "unknownSession"),
        Call(operationId: "countRequests", method: "GET", path: "/v1/sessions/no-such/journal/counts", status: 404, code: "unknownSession"),
        Call(operationId: "setNetworkConditions", method: "PUT", path: "/v1/sessions/s1/network/conditions", body: #"{"fault":"gremlins"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "setRoute", method: "PUT", path: "/v1/sessions/s1/routes/extra", body: #"{"response":{"status":2000}}"#, status: 422, code: "invalidOverrides"),
        Call(operationId: "removeRoute", method: "DELETE", path: "/v1/sessions/s1/routes/no-such", status: 404, code: "unknownRoute"),
        Call(operationId: "createSession", method: "POST", path: "/v1/sessions", body: #"{"scenario":"offline-demo","overrides":{"model":"Ratings"}}"#, status: 422, code: "invalidOverrides"),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/fly", status: 404, code: "unknownAction"),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/setIsRead", body: #"{"url":"x"}"#, status: 400, code: "invalidArguments"),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/setIsRead", body: #"{"url":"x","value":"yes"}"#, status: 400, code: "invalidArguments"),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/reload", body: "[1,2]", status: 400, code: "invalidArguments"),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/setIsRead", body: #"{"url":"x","vaule":true}"#, status: 400, code: "unknownField"),
        Call(operationId: "performAction", method: "POST", path: "/v1/sessions/s1/actions/reload", body: "{\"a\":\u{1}}", status: 400, code: "malformedJSON"),
        Call(operationId: "advanceClock", method: "POST", path: "/v1/sessions/s1/clock/advance", body: #"{"by":"soon"}"#, status: 400, code: "invalidDuration"),
        Call(operationId: "advanceClock", method: "POST", path: "/v1/sessions/s1/clock/advance", body: #"{"by":15}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "setClock", method: "PUT", path: "/v1/sessions/s1/clock", body: #"{"now":"tomorrow"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "getKey", method: "GET", path: "/v1/sessions/s1/kv/missing", status: 404, code: "unknownKey"),
        Call(operationId: "deleteKey", method: "DELETE", path: "/v1/sessions/s1/kv/missing", status: 404, code: "unknownKey"),
        Call(operationId: "getState", method: "GET", path: "/v1/sessions/no-such/state", status: 404, code: "unknownSession"),
        // scenariod's Models use no service of a team's; the example package's tests read and replace one.
        Call(operationId: "getServiceState", method: "GET", path: "/v1/sessions/s1/services/inbox", status: 404, code: "unknownService"),
        Call(operationId: "putServiceState", method: "PUT", path: "/v1/sessions/s1/services/inbox", body: "{}", status: 404, code: "unknownService"),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/s1/services/inbox", body: "{}",
             contentType: "application/merge-patch+json", status: 404, code: "unknownService"),
        Call(operationId: "listJournal", method: "GET", path: "/v1/sessions/no-such/journal", status: 404, code: "unknownSession"),
        Call(operationId: "advanceClock", method: "POST", path: "/v1/sessions/rec1/clock/advance", body: #"{"by":"1s"}"#, status: 409, code: "clockNotMovable"),
        Call(operationId: "rewindSession", method: "POST", path: "/v1/sessions/rec1/rewind", body: #"{"step":0}"#, status: 409, code: "notRewindable"),
        Call(operationId: "rewindSession", method: "POST", path: "/v1/sessions/s1/rewind", body: #"{"step":999}"#, status: 422, code: "unknownStep"),
        Call(operationId: "rewindSession", method: "POST", path: "/v1/sessions/s1/rewind", body: #"{"step":"one"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "getHistory", method: "GET", path: "/v1/sessions/no-such/history", status: 404, code: "unknownSession"),
        // A step past the integers: a number the body cannot carry exactly, refused before any field is read.
        Call(operationId: "rewindSession", method: "POST", path: "/v1/sessions/s1/rewind", body: #"{"step":485064608110005159198720}"#, status: 400, code: "malformedJSON"),
        Call(operationId: "rewindSession", method: "POST", path: "/v1/sessions/s1/rewind", body: #"{"step":1.5}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "showScenario", method: "GET", path: "/v1/scenarios/reload", status: 405, code: "methodNotAllowed"),
        Call(operationId: "saveSession", method: "POST", path: "/v1/sessions/s1/save", body: #"{"name":"agreement-saved"}"#, status: 409, code: "scenarioExists"),
        Call(operationId: "saveSession", method: "POST", path: "/v1/sessions/s1/save", body: #"{"name":"a/b"}"#, status: 400, code: "invalidScenarioName"),
        Call(operationId: "saveSession", method: "POST", path: "/v1/sessions/s1/save", body: #"{"description":"x"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "saveRecording", method: "POST", path: "/v1/sessions/s1/recording", body: #"{"name":"x"}"#, status: 409, code: "notRecording"),
        Call(operationId: "saveRecording", method: "POST", path: "/v1/sessions/rec1/recording", body: #"{"name":"agreement-recorded"}"#, status: 409, code: "scenarioExists"),
        Call(operationId: "saveRecording", method: "POST", path: "/v1/sessions/rec1/recording", body: #"{"name":"../escape"}"#, status: 400, code: "invalidScenarioName"),
        Call(operationId: "saveRecording", method: "POST", path: "/v1/sessions/rec1/recording", body: #"{}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "pushToStream", method: "POST", path: "/v1/sessions/as1/streams/2/push", body: #"{"data":"x"}"#, status: 404, code: "unknownStream"),
        Call(operationId: "pushToStream", method: "POST", path: "/v1/sessions/as1/streams/2/push", body: #"{"data":"x","text":"y"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "pushToStream", method: "POST", path: "/v1/sessions/as1/streams/2/push", body: #"{"event":"token"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "pushToStream", method: "POST", path: "/v1/sessions/as1/streams/one/push", body: #"{"data":"x"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "closeStream", method: "POST", path: "/v1/sessions/as1/streams/2/close", body: #"{"fault":"gremlins"}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "closeStream", method: "POST", path: "/v1/sessions/as1/streams/2/close", status: 404, code: "unknownStream"),
        Call(operationId: "closeStream", method: "POST", path: "/v1/sessions/as1/streams/1/close", body: #"{"code":1006}"#, status: 400, code: "invalidRequest"),
        Call(operationId: "closeStream", method: "POST", path: "/v1/sessions/as1/streams/1/close", body: #"{"code":4000,"fault":"timeout"}"#, status: 400, code: "invalidRequest"),
    ]

    /// A scenario of fixtured's Greeter, whose profile service has a nested object, optional members, a map and a list.
    static let profileScenario = """
        description: A profile with a nickname, a dark theme and two flags.
        model: Greeter
        profile:
          name: Ada
          nickname: Countess
          display:
            theme: dark
          flags:
            beta: true
          tags: [math]
        """

    /// The state that scenario starts from, as GET answers it (sorted keys, compact).
    static let profileState = #"{"display":{"theme":"dark"},"flags":{"beta":true},"name":"Ada","nickname":"Countess","tags":["math"]}"#

    /// A team's service read, replaced and patched, answered by fixtured (scenariod's Models have no service of a
    /// team's), in an order where each finds what it needs (the default session of the profile scenario).
    static let serviceCalls: [Call] = [
        Call(operationId: "listServices", method: "GET", path: "/v1/sessions/default/services", status: 200),
        Call(operationId: "getServiceState", method: "GET", path: "/v1/sessions/default/services/profile", status: 200),
        // GET's answer sent back unchanged.
        Call(operationId: "putServiceState", method: "PUT", path: "/v1/sessions/default/services/profile", body: profileState, status: 200),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/default/services/profile",
             body: #"{"nickname":null,"display":{"fontSize":14},"flags":{"beta":null,"dark":true}}"#,
             contentType: "application/merge-patch+json", status: 200),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/default/services/profile",
             body: #"{"tags":["a","b"]}"#, contentType: "application/json", status: 200),
        Call(operationId: "getHistory", method: "GET", path: "/v1/sessions/default/history", status: 200),
        Call(operationId: "putServiceState", method: "PUT", path: "/v1/sessions/default/services/profile",
             body: #"{"name":"Ada","display":{"theme":5},"flags":{},"tags":[]}"#, status: 400, code: "invalidServiceState"),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/default/services/profile",
             body: #"{"display":{"theme":5}}"#, contentType: "application/merge-patch+json", status: 400, code: "invalidServiceState"),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/default/services/profile",
             body: #"[{"op":"remove","path":"/nickname"}]"#, contentType: "application/json-patch+json", status: 415, code: "unsupportedMediaType"),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/default/services/profile", status: 400, code: "invalidRequest"),
        Call(operationId: "patchServiceState", method: "PATCH", path: "/v1/sessions/default/services/profile",
             body: #"{"a":"#, contentType: "application/merge-patch+json", status: 400, code: "malformedJSON"),
        Call(operationId: "getServiceState", method: "GET", path: "/v1/sessions/default/services/profil", status: 404, code: "unknownService"),
    ]

    /// What the calls of `table` answered, each checked for its status and code.
    private func exchanges(of table: [Call], socket: String) async throws -> [Exchange] {
        var exchanges: [Exchange] = []
        for call in table {
            let response = try await CurlTransport.request(call.method, call.path, body: call.body,
                                                           contentType: call.contentType ?? "application/json", socket: socket)
            #expect(response.status == call.status, "\(call.testDescription): got \(response.status) \(response.body)")
            if let code = call.code {
                #expect(response.body.contains(#""code":"\#(code)""#), "\(call.testDescription): got \(response.body)")
            }
            exchanges.append(Exchange(operationId: call.operationId, status: response.status, contentType: response.contentType, body: response.body))
        }
        return exchanges
    }

    @Test func everyOperationAnswersAsTheDocumentSays() async throws {
        let extra = try Binaries.temporaryDirectory()
        try FileManager.default.createDirectory(at: extra.appendingPathComponent("agreement-record"), withIntermediateDirectories: true)
        try Self.recordScenario.write(to: extra.appendingPathComponent("agreement-record/scenario.yaml"), atomically: true, encoding: .utf8)
        let daemon = try await RunningDaemon.start(["--scenarios", extra.path])
        var exchanges = try await self.exchanges(of: Self.calls + Self.refusals, socket: daemon.socket)
        exchanges.append(try await eventStreamExchange(socket: daemon.socket))
        exchanges.append(try await notModifiedExchange(socket: daemon.socket))
        exchanges.append(try await oversizedBodyExchange(socket: daemon.socket))
        #expect(await daemon.stop() == 0)

        let profiles = extra.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles.appendingPathComponent("profile"), withIntermediateDirectories: true)
        try Self.profileScenario.write(to: profiles.appendingPathComponent("profile/scenario.yaml"), atomically: true, encoding: .utf8)
        let team = try await RunningDaemon.start(["--scenario", "profile"], scenarios: profiles, binary: Binaries.fixtured)
        let answered = try await self.exchanges(of: Self.serviceCalls, socket: team.socket)
        #expect(answered[1].body == Self.profileState, "GET answers the bare state")
        #expect(answered[2].body == Self.profileState, "PUT of what GET answered stores it unchanged")
        #expect(answered[4].body == #"{"display":{"fontSize":14,"theme":"dark"},"flags":{"dark":true},"name":"Ada","tags":["a","b"]}"#)
        exchanges += answered
        #expect(await team.stop() == 0)

        let records = daemon.directory.appendingPathComponent("exchanges.json")
        try JSONEncoder().encode(exchanges).write(to: records)
        let check = try await ProcessResult.run("/usr/bin/python3", [
            Binaries.repository.appendingPathComponent("scripts/check-openapi.py").path,
            Binaries.repository.appendingPathComponent("openapi/scenariod.yaml").path, records.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("\(exchanges.count) passed, 0 failed"), "\(check.stdout)")
    }

    @Test func theTablesCoverEveryOperationOfTheDocument() throws {
        let document = try Yams.load(yaml: String(contentsOf: Binaries.repository.appendingPathComponent("openapi/scenariod.yaml"), encoding: .utf8)) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: [String: Any]])
        let documented = Set(paths.values.flatMap { $0.values.compactMap { ($0 as? [String: Any])?["operationId"] as? String } })
        let exercised = Set((Self.calls + Self.refusals + Self.serviceCalls).map(\.operationId) + ["streamEvents"])
        #expect(documented == exercised)
        #expect(documented.count == 51)
    }

    /// The document names every file of the dashboard, and only those: each is served (the page loads its modules
    /// from `/dashboard/NAME`), so a client generated from the document can fetch each.
    @Test func theDocumentNamesEveryDashboardFile() throws {
        let document = try Yams.load(yaml: String(contentsOf: Binaries.repository.appendingPathComponent("openapi/scenariod.yaml"), encoding: .utf8)) as? [String: Any]
        let path = (document?["paths"] as? [String: Any])?["/dashboard/{asset}"] as? [String: Any]
        let parameter = (path?["parameters"] as? [[String: Any]])?.first
        let listed = try #require((parameter?["schema"] as? [String: Any])?["enum"] as? [String])
        let files = try FileManager.default.contentsOfDirectory(atPath: Binaries.repository.appendingPathComponent("Sources/ControlServer/Dashboard").path)
        #expect(listed.sorted() == files.sorted())
    }

    /// One error vocabulary: the document's `Error.code` enum is ControlAPI's APIErrorCode, code for code and in order,
    /// so the server (which can only answer with an APIErrorCode) never sends a code the document does not list, and
    /// the fuzzer's response check holds it to that.
    @Test func theDocumentsErrorCodesAreControlAPIs() throws {
        let document = try Yams.load(yaml: String(contentsOf: Binaries.repository.appendingPathComponent("openapi/scenariod.yaml"), encoding: .utf8)) as? [String: Any]
        let schemas = (document?["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let code = ((schemas?["Error"] as? [String: Any])?["properties"] as? [String: Any])?["code"] as? [String: Any]
        let listed = try #require(code?["enum"] as? [String], "openapi/scenariod.yaml's Error.code has no enum")
        #expect(listed == APIErrorCode.allCases.map(\.rawValue))
        #expect(Set(listed).count == listed.count, "a code is listed twice")
        #expect(APIErrorCode.allCases.allSatisfy(\.isKnown) && !APIErrorCode(rawValue: "fromANewerDaemon").isKnown)
    }

    private func eventStreamExchange(socket: String) async throws -> Exchange {
        let connection = try RawConnection(socket: socket)
        try connection.send("GET /v1/sessions/s1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let received = await connection.read(until: "\n\n", limit: .seconds(30))
        #expect(received.hasPrefix("HTTP/1.1 200"), "\(received)")
        #expect(received.contains("event: stateChanged\ndata: {"), "\(received)")
        let contentType = received.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }
        return Exchange(operationId: "streamEvents", status: 200,
                        contentType: contentType.map { String($0.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces) } ?? "",
                        body: "")
    }

    /// A state read whose `If-None-Match` names the state's `ETag`, on a connection kept open (answered before the
    /// router) and on one the client closes (answered by the router): the same 304 with the same tag.
    private func notModifiedExchange(socket: String) async throws -> Exchange {
        let tagged = try await ProcessResult.run("/usr/bin/curl", ["--silent", "--include", "--unix-socket", socket,
                                                                  "http://localhost/v1/sessions/s1/state"])
        let tagLine = tagged.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }
        let tag = try #require(tagLine.map { $0.dropFirst("etag:".count).trimmingCharacters(in: .whitespaces) }, "\(tagged.stdout)")
        #expect(tag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil, "\(tag)")
        var status = 0
        for connection in ["keep-alive", "close"] {
            let raw = try RawConnection(socket: socket)
            try raw.send("GET /v1/sessions/s1/state HTTP/1.1\r\nHost: localhost\r\nConnection: \(connection)\r\nIf-None-Match: \(tag)\r\n\r\n")
            let received = await raw.read(until: "\r\n\r\n", limit: .seconds(30))
            #expect(received.hasPrefix("HTTP/1.1 304"), "\(connection): \(received)")
            #expect(received.lowercased().contains("etag: \(tag)"), "\(connection): \(received)")
            status = Int(received.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return Exchange(operationId: "getState", status: status, contentType: "", body: "")
    }

    private func oversizedBodyExchange(socket: String) async throws -> Exchange {
        let file = URL(fileURLWithPath: socket).deletingLastPathComponent().appendingPathComponent("big.json")
        try Data(("\"" + String(repeating: "a", count: (1 << 20) + 10) + "\"").utf8).write(to: file)
        let result = try await ProcessResult.run("/usr/bin/curl", [
            "--silent", "--unix-socket", socket, "-X", "PUT", "-H", "Content-Type: application/json",
            "--data-binary", "@\(file.path)", "-w", "\n%{http_code} %{content_type}", "http://localhost/v1/sessions/s1/kv/big"])
        let lines = result.stdout.split(separator: "\n")
        let trailer = lines.last?.split(separator: " ") ?? []
        #expect(trailer.first == "413", "\(result.stdout)")
        #expect(result.stdout.contains(#""code":"bodyTooLarge""#))
        // The daemon is still well: the next request on a new connection is answered.
        #expect(try await CurlTransport.request("GET", "/v1/health", socket: socket).status == 200)
        return Exchange(operationId: "putKey", status: 413, contentType: trailer.count > 1 ? String(trailer[1]) : "",
                        body: lines.dropLast().joined(separator: "\n"))
    }
}
