public import Foundation
import Fakes
import HTTPTypes
import ScenarioFormat
import Services

/// HAR 1.2 (a browser's devtools, Playwright's `recordHar`, Proxyman and Charles exports) → a scenario, through the
/// same translation a recording session's save uses (``ScenarioFormat/RecordedScenario``): one route per distinct
/// request, answers in recorded order, `after:` where a write changed a read, credentials left out, every body a
/// fixture file (binary ones byte for byte).
public enum HARImporter {
    /// Builds the scenario from a HAR file's bytes.
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - file: Its path as the user named it, for errors and the scenario's description.
    /// - Throws: ``ImportError`` with the place: a syntax error's line and column, or the JSON pointer of a member
    ///   that is missing or of the wrong type.
    public static func importScenario(from data: Data, file: String, options: ImportOptions) throws(ImportError) -> ImportedScenario {
        _ = try ImportError.parseJSON(data, file: file, what: "a HAR file")
        let har = try ImportError.decode(HAR.self, from: data, file: file, what: "a HAR 1.2 file")
        var exchanges: [RecordedExchange] = []
        var untranslated: [UntranslatedPart] = []
        // Replay keeps the order requests started in; ties, and times that do not parse, keep the file's order.
        let started = har.log.entries.map { InstantText.parse($0.startedDateTime) ?? .distantPast }
        let entries = har.log.entries.enumerated().sorted { (started[$0.offset], $0.offset) < (started[$1.offset], $1.offset) }
        for (index, entry) in entries {
            let place = "\(file) /log/entries/\(index)"
            guard let exchange = try exchange(entry, sequence: exchanges.count + 1, file: file, index: index) else {
                untranslated.append(UntranslatedPart(source: place, reason: "the request got no response (status \(entry.response.status)\(entry.response.failureText.map { ", \($0)" } ?? "")); a browser's blocked or aborted request has nothing to replay."))
                continue
            }
            // A redirect (followed below) and an answer that has no body by its status lose nothing without one.
            let status = entry.response.status
            let bodiless = (100..<200).contains(status) || (300..<400).contains(status) || status == 204 || status == 205
                || entry.request.method.uppercased() == "HEAD"
            if entry.response.content.text == nil, (entry.response.content.size ?? 0) != 0, !bodiless {
                untranslated.append(UntranslatedPart(source: place + "/response/content", reason: "the HAR has no body for this response (a browser keeps only the bodies the page read); the route answers with an empty body. Record again with the body read, or put it in the route's bodyFile."))
            }
            exchanges.append(exchange)
        }
        guard !exchanges.isEmpty else {
            throw ImportError(file: file, pointer: "/log/entries", problem: "the file has no request with a response to import.")
        }
        exchanges = followingRedirects(exchanges)
        let first = entries.first.flatMap { InstantText.parse($0.element.startedDateTime) }
        let origin = RecordedScenario.Origin(
            description: "Imported from \((file as NSString).lastPathComponent): \(exchanges.count) request\(exchanges.count == 1 ? "" : "s")\(har.log.creator.map { " recorded by \($0.name)" } ?? "").",
            model: options.model,
            clock: ClockSettings(start: first ?? ClockSettings.default.start, mode: .frozen),
            header: "Imported by scenarioctl from the HAR file \((file as NSString).lastPathComponent); replays without a network.")
        let recorded = RecordedScenario(name: options.scenario, origin: origin, exchanges: exchanges, keepSecrets: options.keepSecrets)
        var files = recorded.files
        if !untranslated.isEmpty, let yaml = files["scenario.yaml"] {
            files["scenario.yaml"] = Data(ImportedScenario.comment(listing: untranslated).utf8) + yaml
        }
        return ImportedScenario(name: options.scenario, model: options.model, files: files, routeCount: recorded.routeCount, untranslated: untranslated)
    }

    /// A browser records a redirect and the request it led to as two entries; scenariod's network follows redirects
    /// as the live one does (`network.redirects`), so the redirected request answers with where the chain ended (up
    /// to 5 hops, each to the next recorded request of the target URL). The target keeps its own route as well.
    static func followingRedirects(_ exchanges: [RecordedExchange]) -> [RecordedExchange] {
        func target(of index: Int) -> Int? {
            guard case .success(let response) = exchanges[index].result, [301, 302, 303, 307, 308].contains(response.head.status.code),
                  let location = response.head.headerFields[.location],
                  let resolved = URL(string: location, relativeTo: URL(string: exchanges[index].request.url))?.absoluteString else { return nil }
            return exchanges.indices.first { $0 > index && exchanges[$0].request.url == resolved }
        }
        return exchanges.indices.map { index in
            var final = index
            for _ in 0..<5 {
                guard let next = target(of: final) else { break }
                final = next
            }
            var exchange = exchanges[index]
            exchange.result = exchanges[final].result
            return exchange
        }
    }

    /// One entry as an exchange; nil for a request that got no response (`status` 0 or below: blocked, aborted).
    private static func exchange(_ entry: HAR.Entry, sequence: Int, file: String, index: Int) throws(ImportError) -> RecordedExchange? {
        let pointer = "/log/entries/\(index)"
        guard let method = HTTPRequest.Method(entry.request.method) else {
            throw ImportError(file: file, pointer: pointer + "/request/method", problem: "'\(entry.request.method)' is not an HTTP method.")
        }
        guard let components = URLComponents(string: entry.request.url), components.scheme != nil, components.host != nil else {
            throw ImportError(file: file, pointer: pointer + "/request/url", problem: "'\(entry.request.url)' is not an absolute URL.")
        }
        var requestFields = HTTPFields()
        for header in entry.request.headers where !header.name.hasPrefix(":") {
            if let name = HTTPField.Name(header.name) { requestFields.append(HTTPField(name: name, value: header.value)) }
        }
        let requestBody = try body(entry.request.postData?.text, encoding: entry.request.postData?.encoding, file: file, pointer: pointer + "/request/postData")
        guard let url = components.url else {
            throw ImportError(file: file, pointer: pointer + "/request/url", problem: "'\(entry.request.url)' is not a URL scenariod can match.")
        }
        let request = NetworkRequest(method: method, url: url, headerFields: requestFields, body: requestBody)
        guard entry.response.status > 0 else { return nil }
        guard (100...599).contains(entry.response.status) else {
            throw ImportError(file: file, pointer: pointer + "/response/status", problem: "\(entry.response.status) is not an HTTP status (100 to 599).")
        }
        var responseFields = HTTPFields()
        for header in entry.response.headers where !header.name.hasPrefix(":") {
            if let name = HTTPField.Name(header.name) { responseFields.append(HTTPField(name: name, value: header.value)) }
        }
        let responseBody = try body(entry.response.content.text, encoding: entry.response.content.encoding, file: file, pointer: pointer + "/response/content")
        let response = NetworkResponse(head: HTTPResponse(status: .init(code: entry.response.status), headerFields: responseFields), body: responseBody)
        return RecordedExchange(sequence: sequence, request: request, result: .success(response))
    }

    private static func body(_ text: String?, encoding: String?, file: String, pointer: String) throws(ImportError) -> Data {
        guard let text else { return Data() }
        switch encoding?.lowercased() {
        case nil, "", "identity", "utf-8", "utf8": return Data(text.utf8)
        case "base64":
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw ImportError(file: file, pointer: pointer + "/text", problem: "the body says it is base64 but is not.")
            }
            return data
        case let other?:
            throw ImportError(file: file, pointer: pointer + "/encoding", problem: "'\(other)' is not an encoding HAR bodies use (base64, or none for text).")
        }
    }
}

/// The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) a scenario needs; the rest is ignored.
struct HAR: Decodable {
    struct Log: Decodable {
        var creator: Creator?
        var entries: [Entry]
    }

    struct Creator: Decodable {
        var name: String
    }

    struct Entry: Decodable {
        var startedDateTime: String
        var request: Request
        var response: Response
    }

    struct Header: Decodable {
        var name: String
        var value: String
    }

    struct Request: Decodable {
        var method: String
        var url: String
        var headers: [Header]
        var postData: Body?
    }

    struct Body: Decodable {
        /// The body's length; -1 when unknown, as for a body the browser did not keep.
        var size: Int?
        var mimeType: String?
        var text: String?
        var encoding: String?
    }

    struct Response: Decodable {
        var status: Int
        var headers: [Header]
        var content: Body
        /// Playwright's and Chromium's note on a request that failed (`net::ERR_…`).
        var failureText: String?

        enum CodingKeys: String, CodingKey {
            case status, headers, content
            case failureText = "_failureText"
        }
    }

    var log: Log
}
