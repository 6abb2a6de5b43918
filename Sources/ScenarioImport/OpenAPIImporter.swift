public import Foundation
import OpenAPIKit
import ScenarioFormat
import Services
import Yams

/// OpenAPI 3.0 and 3.1 documents (JSON or YAML) → a scenario that serves the documented API without a network:
/// a route per operation and documented response, bodies from the document's examples or generated from its
/// schemas (seeded, so the same document and seed give the same bytes).
///
/// An operation's route answers its first success response. Every other documented response is a route of its
/// own, placed before it, that answers only a request whose `Prefer` header says `code=STATUS` — the convention
/// Stoplight Prism's mock server documents — so a client or a test can reach each one.
public enum OpenAPIImporter {
    /// Builds the scenario from an OpenAPI document's bytes (JSON or YAML; 3.0.x or 3.1.x).
    /// - Parameters:
    ///   - data: The document's contents.
    ///   - file: Its path as the user named it, for errors, untranslated parts and the scenario's description.
    ///   - options: The scenario's name and Model, the base URL when the document has none (or a relative one),
    ///     whether credential headers' examples are kept, and the seed of generated bodies.
    /// - Throws: ``ImportError`` with the place: a syntax error's line and column; the `openapi` key of a document
    ///   that is not OpenAPI 3.0 or 3.1; the `$ref` that does not resolve; the member OpenAPIKit refused.
    public static func importScenario(from data: Data, file: String, options: ImportOptions) throws(ImportError) -> ImportedScenario {
        let source = try OpenAPISource(data: data, file: file)
        try source.checkReferences()
        let document = try source.decoded()
        var translation = OpenAPITranslation(document: document, file: file, options: options)
        try translation.translate()
        let name = (file as NSString).lastPathComponent
        let count = translation.operationCount
        return ImportedScenario(
            name: options.scenario,
            description: "Imported from OpenAPI document \(name) (\(document.info.title) \(document.info.version)): \(count) operation\(count == 1 ? "" : "s").",
            model: options.model,
            header: [
                "Imported by scenarioctl from the OpenAPI document \(name); serves without a network.",
                "Each operation answers its first success response; send `Prefer: code=404` (Prism's convention) for another documented one.",
                "Routes match the method and URL only (and Prefer): request bodies, query and header parameters are not checked.",
            ],
            routes: translation.routes, fixtures: translation.fixtures, untranslated: translation.untranslated,
            random: translation.generatedAny ? options.seed : nil)
    }
}

/// The walk over a decoded document that builds the routes, fixture files and the list of what was left out.
struct OpenAPITranslation {
    let document: OpenAPI.Document
    let file: String
    let options: ImportOptions
    /// The origin and path prefix every operation's path is appended to, without a trailing `/`.
    let baseURL: String

    private(set) var routes: [Node] = []
    var fixtures: [String: Data] = [:]
    var untranslated: [UntranslatedPart] = []
    /// Whether some body was generated from a schema, which the scenario's `random: {seed:}` then records.
    var generatedAny = false
    private(set) var operationCount = 0
    private var usedNames = UniqueNames()

    init(document: OpenAPI.Document, file: String, options: ImportOptions) {
        self.document = document
        self.file = file
        self.options = options
        self.baseURL = Self.baseURL(of: document, given: options.baseURL)
    }

    /// A place in the document, as untranslated parts name it: `FILE /paths/~1pets/get/callbacks`.
    func place(_ path: [String]) -> String {
        "\(file) \(OpenAPISource.pointer(path))"
    }

    /// Notes a part left out, at `path`.
    mutating func leaveOut(_ path: [String], _ reason: String) {
        untranslated.append(UntranslatedPart(source: place(path), reason: reason))
    }

    /// Translates every operation, in the document's order, and lists the document-wide parts a scenario cannot hold.
    mutating func translate() throws(ImportError) {
        for (path, item) in document.paths {
            let itemPath = ["paths", path.rawValue]
            guard let pathItem = resolveOrLeaveOut(item, at: itemPath) else { continue }
            if pathItem.servers?.isEmpty == false {
                leaveOut(itemPath + ["servers"], "the path's own servers are not used; its routes answer at \(baseURL) (pass --base-url for another origin).")
            }
            for endpoint in pathItem.endpoints {
                translate(endpoint.operation, method: endpoint.method.rawValue, path: path, at: itemPath + [endpoint.method.rawValue.lowercased()])
            }
        }
        guard operationCount > 0 else {
            throw ImportError(file: file, pointer: "/paths", problem: "the document has no operation with a response to import; a scenario needs at least one route.")
        }
        for name in document.webhooks.keys {
            leaveOut(["webhooks", name], "webhooks are requests the API's server sends; a scenario only answers the Model's requests.")
        }
        if !document.components.securitySchemes.isEmpty {
            leaveOut(["components", "securitySchemes"], "routes do not check credentials: every request is answered as if it were authorized.")
        }
    }

    // MARK: Operations

    private mutating func translate(_ operation: OpenAPI.Operation, method: String, path: OpenAPI.Path, at pointer: [String]) {
        if !operation.callbacks.isEmpty {
            leaveOut(pointer + ["callbacks"], "callbacks are requests the API's server sends; a scenario only answers the Model's requests.")
        }
        if operation.servers?.isEmpty == false {
            leaveOut(pointer + ["servers"], "the operation's own servers are not used; its routes answer at \(baseURL) (pass --base-url for another origin).")
        }
        let responses = Array(operation.responses)
        guard !responses.isEmpty else {
            leaveOut(pointer + ["responses"], "the operation documents no response, so there is nothing to answer with; add one.")
            return
        }
        let primary = Self.primaryIndex(responses.map(\.key))
        let base = uniqueName(Self.routeStem(operationId: operation.operationId, method: method, path: path.rawValue))
        var request: [(Node, Node)] = [("method", Node(method))]
        let url = baseURL + path.rawValue
        request.append(url.contains("{") ? ("urlPattern", .scenarioText(Self.urlPattern(url))) : ("url", .scenarioText(url)))

        let (primaryCode, primaryResponse) = responses[primary]
        let primaryPath = pointer + ["responses", primaryCode.rawValue]
        guard let primaryResolved = resolveOrLeaveOut(primaryResponse, at: primaryPath) else { return }

        // The other responses first: the first route that matches answers, and the default route matches them too.
        // `Prefer: code=500` names a status; a `default` or `5XX` beside a documented 500 goes by its own key.
        var claimedCodes = Set(responses.compactMap { code, _ -> Int? in
            if case .status(let number) = code.value { number } else { nil }
        })
        for (index, (code, response)) in responses.enumerated() where index != primary {
            let responsePath = pointer + ["responses", code.rawValue]
            guard let response = resolveOrLeaveOut(response, at: responsePath) else { continue }
            let status = Self.status(of: code, primary: false)
            let preferred = if case .status = code.value { String(status) } else if claimedCodes.insert(status).inserted { String(status) } else { code.rawValue }
            let name = uniqueName("\(base)-\(code.rawValue)")
            let prefer: Node = .mapping(.init([("Prefer", .mapping(.init([("regex", .scenarioText(".*code=\(preferred).*"))])))]))
            let answer = responseNode(response, status: status, fixtureStem: name, at: responsePath)
            routes.append(.mapping(.init([
                (Node("name"), Node.scenarioText(name)), (Node("request"), Node.mapping(.init(request + [(Node("headers"), prefer)]))),
                (Node("response"), answer),
            ])))
        }
        let answer = responseNode(primaryResolved, status: Self.status(of: primaryCode, primary: true),
                                  fixtureStem: "\(base)-\(primaryCode.rawValue)", at: primaryPath)
        routes.append(.mapping(.init([(Node("name"), Node.scenarioText(base)), (Node("request"), Node.mapping(.init(request))), (Node("response"), answer)])))
        operationCount += 1
    }

    /// The response an operation answers by default: its lowest 2xx status, else a `2XX` range, else `default`,
    /// else the first listed.
    static func primaryIndex(_ codes: [OpenAPI.Response.StatusCode]) -> Int {
        let successes = codes.enumerated().compactMap { index, code -> (Int, Int)? in
            if case .status(let number) = code.value, (200..<300).contains(number) { return (number, index) }
            return nil
        }
        if let lowest = successes.min(by: { $0.0 < $1.0 }) { return lowest.1 }
        if let range = codes.firstIndex(where: { $0.value == .range(.success) }) { return range }
        if let fallback = codes.firstIndex(where: { $0.value == .default }) { return fallback }
        return 0
    }

    /// The status a route sends for a documented response code: the number; a range's first (`4XX` → 400).
    /// `default` is 200 when it is what the operation answers by default (it documents no success of its own, so
    /// `default` is the answer it gives, as in documents that describe one generic response) and 500 beside a
    /// success, where it conventionally describes the errors.
    static func status(of code: OpenAPI.Response.StatusCode, primary: Bool) -> Int {
        switch code.value {
        case .status(let number): number
        case .range(let range): (Int(range.rawValue.prefix(1)) ?? 5) * 100
        case .default: primary ? 200 : 500
        }
    }

    // MARK: URLs and names

    /// The base URL: the user's (joined with the path of the document's first server when that one is relative,
    /// `/v2`), else the document's first absolute server, else its first relative one on the default origin. A
    /// server's variables are at their defaults.
    static func baseURL(of document: OpenAPI.Document, given: String?) -> String {
        let servers = document.servers.map { server in
            server.variables.reduce(server.urlTemplate.rawValue) { url, variable in
                url.replacingOccurrences(of: "{\(variable.key)}", with: variable.value.default)
            }
        }
        func isAbsolute(_ url: String) -> Bool {
            guard let components = URLComponents(string: url) else { return false }
            return components.scheme != nil && components.host != nil
        }
        func joined(_ origin: String, _ relative: String) -> String {
            var path = relative
            while path.hasPrefix("./") { path.removeFirst(2) }
            if !path.isEmpty, !path.hasPrefix("/") { path = "/" + path }
            return trimmingSlash(trimmingSlash(origin) + path)
        }
        if let given {
            guard let first = servers.first, !isAbsolute(first) else { return trimmingSlash(given) }
            return joined(given, first)
        }
        if let absolute = servers.first(where: isAbsolute) { return trimmingSlash(absolute) }
        return joined(ImportOptions.defaultBaseURL, servers.first ?? "")
    }

    private static func trimmingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The whole URL as a regular expression: literal parts escaped, each `{name}` one path segment.
    static func urlPattern(_ url: String) -> String {
        var pattern = ""
        var inTemplate = false
        for character in url {
            switch character {
            case "{" where !inTemplate: inTemplate = true
            case "}" where inTemplate: inTemplate = false; pattern += "[^/]+"
            case _ where inTemplate: break
            case "\\", ".", "^", "$", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}": pattern += "\\\(character)"
            default: pattern.append(character)
            }
        }
        return pattern
    }

    /// The operationId in letters, digits and `-`; else `get-pets-petId` from the method and path.
    static func routeStem(operationId: String?, method: String, path: String) -> String {
        func clean(_ text: String) -> String {
            let mapped = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
            return mapped.split(separator: "-").joined(separator: "-")
        }
        if let operationId, !clean(operationId).isEmpty { return clean(operationId) }
        let stem = clean(path)
        return "\(method.lowercased())-\(stem.isEmpty ? "root" : stem)"
    }

    private mutating func uniqueName(_ base: String) -> String {
        usedNames.claim(base)
    }

    // MARK: References

    /// `maybeReference`'s value, looked up under /components; nil when OpenAPIKit cannot look it up, which the
    /// reference check before decoding leaves only for references to places outside /components.
    func resolve<T: ComponentDictionaryLocatable>(_ maybeReference: Either<OpenAPI.Reference<T>, T>) -> T? {
        try? document.components.lookup(maybeReference)
    }

    /// The same as ``resolve(_:)``, listing the part at `path` when the lookup fails.
    mutating func resolveOrLeaveOut<T: ComponentDictionaryLocatable>(_ maybeReference: Either<OpenAPI.Reference<T>, T>, at path: [String]) -> T? {
        if let value = resolve(maybeReference) { return value }
        leaveOut(path, "the reference points outside /components, which OpenAPIKit does not follow; move what it names under /components.")
        return nil
    }
}
