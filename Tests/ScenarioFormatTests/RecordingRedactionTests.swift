import Foundation
import ScenarioFormat
import Services
import Testing

/// Credentials in recorded bodies: left out of matchers, `<redacted>` in fixtures, in JSON and form bodies alike.
@Suite struct RecordingRedactionTests {
    @Test func secretFieldsAreFoundAtAnyDepthInAnyCaseAndByPointer() {
        let body: JSONValue = ["user": "alice", "Password": "p", "auth": ["accessToken": "a", "refresh_token": "r"],
                               "profile": ["ssn": "123", "name": "Alice"]]
        let (removed, changed) = body.redactingSecrets(pointers: ["/profile/ssn"], replacement: nil)
        #expect(changed)
        #expect(removed == ["user": "alice", "auth": [:], "profile": ["name": "Alice"]])
        let (replaced, _) = body.redactingSecrets(replacement: "<redacted>")
        #expect(replaced == ["user": "alice", "Password": "<redacted>", "auth": ["accessToken": "<redacted>", "refresh_token": "<redacted>"],
                             "profile": ["ssn": "123", "name": "Alice"]])
        let noSecrets: JSONValue = ["items": [1, 2]]
        #expect(noSecrets.redactingSecrets(replacement: nil).changed == false)
    }

    @Test func fixturesHoldRedactedInJSONAndFormBodiesAndKeepOtherBodiesAsTheyWere() {
        let json = RecordedScenario.redactingSecrets(in: Data(#"{"token":"tok-1","user":"alice"}"#.utf8), pointers: [])
        #expect(String(decoding: json, as: UTF8.self) == #"{"token":"<redacted>","user":"alice"}"#)
        let form = RecordedScenario.redactingSecrets(in: Data("access_token=abc&token_type=bearer&expires_in=3600".utf8), pointers: [])
        #expect(String(decoding: form, as: UTF8.self) == "access_token=%3Credacted%3E&token_type=bearer&expires_in=3600")
        let plain = Data("<html>password: see the docs</html>".utf8)
        #expect(RecordedScenario.redactingSecrets(in: plain, pointers: []) == plain)
        let untouched = Data(#"{ "user" : "alice" }"#.utf8)
        #expect(RecordedScenario.redactingSecrets(in: untouched, pointers: []) == untouched, "a body without credentials keeps its bytes")
    }

    @Test func aNearMissInABodyIsLoggedWithoutTheSecret() {
        let miss = NearMiss(route: "sign-in", field: "/body", expected: #"{"password":"hunter2","user":"bob"}"#,
                            actual: #"{"password":"correct horse","user":"alice"}"#)
        let shown = miss.redactingSecrets().explanation
        #expect(!shown.contains("hunter2") && !shown.contains("correct horse") && shown.contains("alice"))
        let query = NearMiss(route: "r", field: "/query/api_key", expected: "k1", actual: "k2").redactingSecrets()
        #expect(query.expected == "<redacted>" && query.actual == "<redacted>")
    }
}
