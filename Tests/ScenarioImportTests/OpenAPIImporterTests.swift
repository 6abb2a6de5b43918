import Foundation
import ScenarioFormat
import ScenarioImport
import Services
import XCTest
import Yams

final class OpenAPIImporterTests: XCTestCase {
    /// The documents beside this file, read from the source tree (the test target excludes the directory).
    private static let documents = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("OpenAPI")

    private func document(_ name: String) throws -> Data {
        try Data(contentsOf: Self.documents.appendingPathComponent(name))
    }

    private func importing(_ name: String, seed: UInt64 = 0, baseURL: String? = nil) throws -> ImportedScenario {
        let options = ImportOptions(scenario: "imported", model: "FeedReader", baseURL: baseURL, seed: seed)
        return try OpenAPIImporter.importScenario(from: document(name), file: name, options: options)
    }

    private func yaml(_ scenario: ImportedScenario) -> String {
        String(decoding: scenario.files["scenario.yaml"]!, as: UTF8.self)
    }

    private func refusal(_ text: String, file: String = "api.yaml") -> ImportError? {
        do {
            _ = try OpenAPIImporter.importScenario(from: Data(text.utf8), file: file, options: ImportOptions(scenario: "x", model: "FeedReader"))
            XCTFail("\(file) was imported; it should have been refused")
            return nil
        } catch {
            return error
        }
    }

    // MARK: A 3.1 document with examples

    /// Every documented response is a route: the first success answers by default; the others, placed before it,
    /// answer a request that asks for them with Prism's `Prefer: code=…`.
    func testEachResponseIsARouteAndTheOthersAnswerPrefer() throws {
        let scenario = try importing("petstore-3.1.yaml")
        let text = yaml(scenario)
        XCTAssertEqual(scenario.routeCount, 7)
        XCTAssertTrue(text.contains("""
          - name: showPetById-404
            request:
              method: GET
              urlPattern: https://eu\\.petstore\\.example/v1/pets/[^/]+
              headers:
                Prefer:
                  regex: .*code=404.*
            response:
              status: 404
              headers:
                Content-Type: application/json
              body:
                code: 404
                message: No pet has that id.
          - name: showPetById
            request:
              method: GET
              urlPattern: https://eu\\.petstore\\.example/v1/pets/[^/]+
            response:
              status: 200
        """), text)
        // `default` beside a success is the errors' answer: 500, reached with code=500.
        XCTAssertTrue(text.contains("""
          - name: listPets-default
            request:
              method: GET
              url: https://eu.petstore.example/v1/pets
              headers:
                Prefer:
                  regex: .*code=500.*
            response:
              status: 500
        """), text)
        let names = text.split(separator: "\n").filter { $0.hasPrefix("  - name: ") }.map { $0.dropFirst(10) }
        XCTAssertEqual(names, ["listPets-default", "listPets", "create-pet-400", "create-pet", "showPetById-404", "showPetById", "get-health"])
    }

    /// The media type's first example in the document's order, a header's example, a schema's own example, and a
    /// text body as written; nothing generated, so no seed.
    func testExamplesAreUsedInTheDocumentsOrder() throws {
        let text = yaml(try importing("petstore-3.1.yaml"))
        XCTAssertTrue(text.contains("""
            response:
              status: 200
              headers:
                Content-Type: application/json
                X-Next: /pets?page=2
              body:
              - id: 1
                name: Fido
                tag: dog
              - id: 2
                name: Tom
                tag: cat
        """), text)
        XCTAssertTrue(text.contains("""
                Content-Type: application/problem+json
              body:
                status: 400
                title: Bad request
        """), text)
        XCTAssertTrue(text.contains("""
              body:
                id: 7
                name: Kitty
                tag: null
        """), text)
        XCTAssertTrue(text.contains("""
                Content-Type: text/plain
              body: ok
        """), text)
        XCTAssertTrue(text.contains("description: \"Imported from OpenAPI document petstore-3.1.yaml (Petstore 1.2.0): 4 operations.\""), text)
        XCTAssertFalse(text.contains("random:"), text)
    }

    /// What a scenario cannot hold is listed with its place, in the scenario's header too.
    func testUntranslatedPartsAreListedWithTheirPlaces() throws {
        let scenario = try importing("petstore-3.1.yaml")
        XCTAssertEqual(scenario.untranslated.map(\.source), [
            "petstore-3.1.yaml /paths/~1pets/get/responses/200/headers/X-Rate-Limit",
            "petstore-3.1.yaml /paths/~1pets/post/callbacks",
            "petstore-3.1.yaml /paths/~1pets/post/responses/201/links",
            "petstore-3.1.yaml /webhooks/newPet",
            "petstore-3.1.yaml /components/securitySchemes",
        ])
        XCTAssertTrue(yaml(scenario).contains("# Not translated (5):\n#   petstore-3.1.yaml /paths/~1pets/get/responses/200/headers/X-Rate-Limit: "), yaml(scenario))
    }

    // MARK: A 3.0 document without examples

    /// Bodies come from the schemas: all properties but write-only ones, formats and bounds kept, a recursive
    /// schema cut off; a large body is a fixture file, and the seed is the scenario's.
    func testBodiesAreGeneratedFromSchemas() throws {
        let scenario = try importing("inventory-3.0.json", seed: 7)
        let text = yaml(scenario)
        XCTAssertTrue(text.contains("random:\n  seed: 7\n"), text)
        XCTAssertTrue(text.contains("""
          - name: get-items
            request:
              method: GET
              url: http://localhost:8080/api/v2/items
            response:
              status: 200
              headers:
                Content-Type: application/json
              bodyFile: fixtures/get-items-200.json
        """), text)
        let fixture = try XCTUnwrap(scenario.files["fixtures/get-items-200.json"])
        guard case .array(let items) = try JSONValue(json: fixture) else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, 3, "minItems and maxItems are 3")
        for item in items {
            guard case .object(let members) = item else { return XCTFail("\(item) is not an object") }
            XCTAssertEqual(Set(members.keys), ["name", "id", "price", "quantity", "status", "addedAt", "restockOn", "contact", "page", "category", "label"])
            guard case .string(let id) = members["id"], case .double(let price) = members["price"], case .int(let quantity) = members["quantity"],
                  case .string(let status) = members["status"], case .string(let added) = members["addedAt"],
                  case .string(let name) = members["name"], case .string(let contact) = members["contact"] else {
                return XCTFail("\(members) has a member of the wrong type")
            }
            XCTAssertNotNil(UUID(uuidString: id), id)
            XCTAssertTrue((1...50).contains(price), "\(price)")
            XCTAssertTrue((0...10).contains(quantity), "\(quantity)")
            XCTAssertTrue(["available", "pending", "sold"].contains(status), status)
            XCTAssertTrue(added.hasPrefix("2026-") && added.hasSuffix("Z"), added)
            XCTAssertGreaterThanOrEqual(name.count, 3)
            XCTAssertTrue(contact.hasSuffix("@example.com"), contact)
            // Category holds Categories: four levels down the children are empty objects.
            guard case .object(let category) = members["category"], case .array(let children) = category["children"] else {
                return XCTFail("\(members) has no category tree")
            }
            XCTAssertTrue(children.allSatisfy { $0 == .object([:]) }, "\(children)")
        }
        XCTAssertTrue(String(decoding: fixture, as: UTF8.self).contains("\"children\" : [\n        {}"), String(decoding: fixture, as: UTF8.self))
    }

    /// The same document and seed write the same bytes; another seed other values.
    func testTheSeedDecidesTheBytes() throws {
        let first = try importing("inventory-3.0.json", seed: 7)
        let again = try importing("inventory-3.0.json", seed: 7)
        let other = try importing("inventory-3.0.json", seed: 8)
        XCTAssertEqual(first.files, again.files)
        XCTAssertEqual(Set(first.files.keys), Set(other.files.keys))
        XCTAssertNotEqual(first.files["fixtures/get-items-200.json"], other.files["fixtures/get-items-200.json"])
        XCTAssertNotEqual(first.files["scenario.yaml"], other.files["scenario.yaml"])
    }

    /// A generated string follows its schema's `pattern` (and lengths) under every seed; a pattern the import
    /// cannot draw from is listed at its schema, never silently broken. Four of ten generated bodies broke theirs.
    func testGeneratedStringsFollowTheirPatterns() throws {
        let patterns = [
            #"^[A-Z]{3}-\d{4}$"#, #"^[a-z0-9-]+$"#, #"^(EUR|USD|GBP)$"#, #"^\+?[1-9]\d{1,14}$"#, #"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"#,
            #"^v\d+(\.\d+){2}(-[a-z]+)?$"#, #"^[\w.]{2,8}$"#, #"[0-9a-f]{8}"#, #"^#[0-9A-Fa-f]{6}$"#, #"^(?:ab|c)*d?$"#,
        ]
        let properties = patterns.enumerated().map { "p\($0.offset): {type: string, pattern: '\($0.element)', minLength: 1, maxLength: 40}" }
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /codes:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            properties: {\(properties.joined(separator: ", "))}
              /odd:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: {type: object, properties: {q: {type: string, pattern: '^(?=a)\\w+$'}}}
            """
        for seed in UInt64(0)..<100 {
            let scenario = try OpenAPIImporter.importScenario(from: Data(document.utf8), file: "api.yaml", options: ImportOptions(
                scenario: "x", model: "FeedReader", seed: seed))
            let routes = try XCTUnwrap((try Yams.load(yaml: yaml(scenario)) as? [String: Any])?["network"] as? [String: Any])["routes"] as? [[String: Any]]
            let body = try XCTUnwrap((routes?.first { $0["name"] as? String == "get-codes" }?["response"] as? [String: Any])?["body"] as? [String: String])
            for (index, pattern) in patterns.enumerated() {
                let value = try XCTUnwrap(body["p\(index)"])
                let expression = try NSRegularExpression(pattern: pattern)
                XCTAssertNotNil(expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)), "seed \(seed): '\(value)' against \(pattern)")
                XCTAssertTrue((1...40).contains(value.count), "seed \(seed): '\(value)' is \(value.count) long")
            }
            XCTAssertEqual(scenario.untranslated.map(\.source), ["api.yaml /paths/~1odd/get/responses/200/content/application~1json/schema"])
            XCTAssertTrue(scenario.untranslated[0].reason.contains("^(?=a)\\w+$"), scenario.untranslated[0].reason)
        }
    }

    /// The first absolute server is the base, though a relative one comes first; `--base-url` takes that relative
    /// path; with no absolute server, the relative one is on the default origin.
    func testTheBaseURLIsTheFirstAbsoluteServerOrTheGivenOneWithTheRelativePath() throws {
        func base(_ servers: String, given: String? = nil) throws -> String? {
            let document = """
                openapi: 3.1.0
                info: {title: t, version: "1"}
                servers: \(servers)
                paths:
                  /pets:
                    get:
                      responses:
                        "200": {description: ok}
                """
            let options = ImportOptions(scenario: "x", model: "FeedReader", baseURL: given)
            let text = yaml(try OpenAPIImporter.importScenario(from: Data(document.utf8), file: "api.yaml", options: options))
            return text.firstMatch(of: /url: (\S+)\/pets/).map { String($0.1) }
        }
        XCTAssertEqual(try base("[{url: /v2}, {url: 'https://api.example/v2/'}]"), "https://api.example/v2")
        XCTAssertEqual(try base("[{url: /v2}, {url: 'https://api.example/v2'}]", given: "https://staging.example/"), "https://staging.example/v2")
        XCTAssertEqual(try base("[{url: 'https://api.example/v2'}, {url: /v2}]", given: "https://staging.example"), "https://staging.example")
        XCTAssertEqual(try base("[{url: v3}]"), "http://localhost:8080/v3")
        XCTAssertEqual(try base("[{url: '{scheme}://{host}/api', variables: {scheme: {default: https}, host: {default: pets.example}}}]"), "https://pets.example/api")
        XCTAssertEqual(try base("[]"), "http://localhost:8080")
    }

    /// A response without content is a status; `default` alone answers 200; a CSV body without an example is
    /// listed; a relative server URL is joined to the given origin.
    func testDefaultsStatusesAndBaseURL() throws {
        let scenario = try importing("inventory-3.0.json", seed: 7, baseURL: "https://staging.example/")
        let text = yaml(scenario)
        XCTAssertTrue(text.contains("""
          - name: item-stock-404
            request:
              method: GET
              urlPattern: https://staging\\.example/api/v2/items/[^/]+/stock
              headers:
                Prefer:
                  regex: .*code=404.*
            response:
              status: 404
          - name: item-stock-default
        """), text)
        XCTAssertTrue(text.contains("""
          - name: report
            request:
              method: GET
              url: https://staging.example/api/v2/report
            response:
              status: 200
        """), text)
        XCTAssertEqual(scenario.untranslated.map(\.source), ["inventory-3.0.json /paths/~1report/get/responses/default/content/text~1csv"])
    }

    /// What the importer writes is a scenario the daemon loads without a problem.
    func testImportedScenariosPassTheCheck() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenariod-openapi-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for (file, name) in [("petstore-3.1.yaml", "petstore"), ("inventory-3.0.json", "inventory")] {
            let options = ImportOptions(scenario: name, model: "FeedReader", seed: 3)
            _ = try OpenAPIImporter.importScenario(from: document(file), file: file, options: options).write(into: root)
        }
        XCTAssertEqual(ScenarioCatalog.check([root], models: ["FeedReader"]).problems.map(\.description), [])
    }

    // MARK: Refusals

    /// A `$ref` to a schema the document lacks is refused at the reference, by line, column and pointer.
    func testBrokenReferenceIsRefusedWhereItIs() throws {
        XCTAssertThrowsError(try importing("broken-ref.yaml")) { error in
            let error = error as! ImportError
            XCTAssertEqual(error.file, "broken-ref.yaml")
            XCTAssertEqual(error.line, 16)
            XCTAssertEqual(error.column, 25)
            XCTAssertEqual(error.pointer, "/paths/~1things/get/responses/200/content/application~1json/schema/items/$ref")
            XCTAssertTrue(error.problem.contains("'#/components/schemas/Missing' does not resolve"), error.problem)
            XCTAssertTrue(error.description.hasPrefix("broken-ref.yaml:16:25: /paths/~1things/"), error.description)
        }
    }

    /// A reference into another file is refused: bundle first.
    func testExternalReferenceIsRefused() {
        let error = refusal("""
        openapi: 3.1.0
        info: {title: T, version: '1'}
        paths:
          /a:
            get:
              responses:
                '200': {$ref: 'common.yaml#/components/responses/Ok'}
        """)
        XCTAssertEqual(error?.pointer, "/paths/~1a/get/responses/200/$ref")
        XCTAssertEqual(error?.line, 7)
        XCTAssertTrue(error?.problem.contains("bundle the document first") == true, error?.problem ?? "")
    }

    /// Swagger 2.0, another OpenAPI version, a document with no `openapi` and JSON cut short are refused with places.
    func testDocumentsThatAreNotOpenAPI3AreRefused() {
        let swagger = refusal("swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n")
        XCTAssertEqual(swagger?.pointer, "/swagger")
        XCTAssertTrue(swagger?.problem.contains("Swagger 2.0") == true, swagger?.problem ?? "")

        let future = refusal("openapi: 3.2.0\ninfo: {title: T, version: '1'}\npaths: {}\n")
        XCTAssertEqual(future?.pointer, "/openapi")
        XCTAssertEqual(future?.line, 1)

        let other = refusal("name: not an API\n")
        XCTAssertEqual(other?.pointer, "")
        XCTAssertTrue(other?.problem.contains("no 'openapi' key") == true, other?.problem ?? "")

        let cut = refusal("{\"openapi\": \"3.1.0\",\n \"info\": {", file: "cut.json")
        XCTAssertEqual(cut?.line, 2)
        XCTAssertNotNil(cut?.column)

        let unclosed = refusal("openapi: 3.1.0\ninfo: [unclosed\n")
        XCTAssertNotNil(unclosed?.line)
    }

    /// A document without an operation has nothing to serve.
    func testDocumentWithoutOperationsIsRefused() {
        let error = refusal("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n")
        XCTAssertEqual(error?.pointer, "/paths")
    }
}
