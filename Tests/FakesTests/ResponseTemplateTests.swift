import Fakes
import Foundation
import HTTPTypes
import Services
import Testing

/// What a template reads from a request and the clock, and how what it puts in is escaped.
@Suite struct ResponseTemplateTests {
    let now = Date(timeIntervalSince1970: 1_793_523_600.25) // 2026-11-01T09:00:00.25Z

    func render(_ text: String, json: Bool = true, url: String = "https://x.example/v1/items/a%20b?id=7&id=8&q=",
                headers: HTTPFields = [:], body: String = "") throws -> String {
        let template = ResponseTemplate(body: try ResponseTemplate.compile(text), bodyIsJSON: json, headers: [:])
        let request = NetworkRequest(method: .post, url: URL(string: url)!, headerFields: headers, body: Data(body.utf8))
        return String(decoding: template.render(over: NetworkResponse(status: 200), request: request, now: now).body, as: UTF8.self)
    }

    @Test func theRequestsPartsAndTheClock() throws {
        #expect(try render("{{request.method}} {{request.path}} {{request.path.2}} {{request.path.9}}|") == "POST /v1/items/a%20b a b |")
        #expect(try render("{{request.query.id}}/{{request.query.q}}/{{request.query.none}}") == "7//")
        let headers: HTTPFields = [HTTPField.Name("X-Trace")!: "t-1"]
        #expect(try render("{{request.headers.X-Trace}} {{request.headers.x-trace}}", headers: headers) == "t-1 t-1")
        #expect(try render("{{now}} {{now.date}} {{now.time}} {{now.epochSeconds}} {{now.epochMilliseconds}}")
            == "2026-11-01T09:00:00.250Z 2026-11-01 09:00:00 1793523600 1793523600250")
        #expect(try render("{{now.httpDate}}") == "Sun, 01 Nov 2026 09:00:00 GMT")
    }

    @Test func headersAreFilledUnescapedOnOneLine() throws {
        let asked = HTTPField.Name("X-Asked-At")!, echo = HTTPField.Name("X-Echo")!
        let template = ResponseTemplate(body: nil, bodyIsJSON: false, headers: [
            asked: try ResponseTemplate.compile("{{now.httpDate}}"),
            echo: try ResponseTemplate.compile("{{request.query.say}} & {{request.headers.x-line}}"),
        ])
        let request = NetworkRequest(method: .get, url: URL(string: "https://x.example/?say=a%22b")!,
                                     headerFields: [HTTPField.Name("X-Line")!: "one"], body: Data())
        let original = NetworkResponse(status: 201, headerFields: [.contentType: "text/plain"], body: Data("kept".utf8))
        let rendered = template.render(over: original, request: request, now: now)
        #expect(rendered.head.headerFields[asked] == "Sun, 01 Nov 2026 09:00:00 GMT")
        #expect(rendered.head.headerFields[echo] == #"a"b & one"#)
        // What the template does not name stays as the route wrote it.
        #expect(rendered.head.headerFields[.contentType] == "text/plain")
        #expect(rendered.head.status.code == 201 && rendered.body == Data("kept".utf8))
    }

    @Test func aJSONBodysFieldsListsAndWhole() throws {
        let body = #"{"user":{"name":"Ann","age":41},"items":[{"n":1},{"n":2}],"ok":true}"#
        #expect(try render("{{request.body.user.name}} {{request.body.user.age}} {{request.body.ok}}", body: body) == "Ann 41 true")
        #expect(try render("{{#request.body.items}}[{{n}}]{{/request.body.items}}", body: body) == "[1][2]")
        #expect(try render("{{request.body.user}}", json: false, body: body) == #"{"age":41,"name":"Ann"}"#)
        #expect(try render("{{request.body}}", json: false, body: "plain text") == "plain text")
    }

    @Test func textIsEscapedForAJSONStringAndLeftAloneElsewhere() throws {
        let body = #"{"name":"a \"quoted\" <b> & \\ name"}"#
        #expect(try render(#"{"n":"{{request.body.name}}"}"#, body: body) == #"{"n":"a \"quoted\" <b> & \\ name"}"#)
        #expect(try render("{{request.body.name}}", json: false, body: body) == #"a "quoted" <b> & \ name"#)
    }

    @Test func compileErrorsSayWhereAndNamesOutsideSectionsAreChecked() {
        #expect(throws: ResponseTemplate.CompileError.self) { try ResponseTemplate.compile("{{#a}}\n{{/b}}") }
        do {
            _ = try ResponseTemplate.compile("ok\n{{#a}}x")
        } catch {
            #expect(error.message == "a section is never closed; end it with {{/NAME}}")
            #expect(error.line == 2)
        }
        #expect(ResponseTemplate.unknownNames(in: "{{requst.url}} {{#request.body.items}}{{n}}{{/request.body.items}} {{now}} {{x}}")
            == ["requst.url", "x"])
    }
}
