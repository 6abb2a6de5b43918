import Fakes
import Foundation
import GraphQL
import OrderedCollections
import GraphQLFakes
import HTTPTypes
import ScenarioFormat
import ScenarioImport
import Services
import Testing

/// `scenarioctl import graphql`: a schema, as SDL or as an introspection result, becomes a scenario that loads and
/// answers every query the schema allows from generated data, with mutations wired by their names.
@Suite struct GraphQLImporterTests {
    static let shippedSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios/trips-happy/schema.graphql")

    static let library = """
        interface Item { id: ID!, title: String! }
        type Book implements Item { id: ID!, title: String!, pages: Int!, author: Author!, format: Format! }
        type Film implements Item { id: ID!, title: String!, minutes: Float, rated: Boolean! }
        type Author { id: ID!, name: String!, books: [Book!]! }
        enum Format { HARDBACK PAPERBACK EBOOK }
        scalar Date
        type Query { books(author: ID): [Book!]!, item(id: ID!): Item, version: String!, today: Date }
        input BookInput { title: String!, pages: Int!, author: ID!, format: Format! }
        type Mutation { createBook(input: BookInput!): Book!, updateBook(id: ID!, title: String): Book, deleteBook(id: ID!): Boolean!, ping: String }
        type Subscription { itemAdded: Item! }
        """

    /// The scenario written into a new directory and loaded as a daemon would load it.
    static func load(_ scenario: ImportedScenario) throws -> ScenarioCatalog {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("graphql-import-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        _ = try scenario.write(into: root)
        return ScenarioCatalog.load(from: [root], models: ["FeedReader"])
    }

    static func importing(_ text: String, file: String) throws -> ImportedScenario {
        try GraphQLImporter.importScenario(from: Data(text.utf8), file: file,
                                           options: ImportOptions(scenario: "library", model: "FeedReader", baseURL: "https://library.example"))
    }

    @Test func anSDLSchemaBecomesAScenarioThatAnswersEveryQueryItAllows() async throws {
        let scenario = try Self.importing(Self.library, file: "library.graphql")
        let yaml = String(decoding: try #require(scenario.files["scenario.yaml"]), as: UTF8.self)
        #expect(scenario.routeCount == 2)
        #expect(yaml.contains("url: https://library.example/graphql") && yaml.contains("url: wss://library.example/graphql"))
        #expect(yaml.contains("createBook:\n            insert: Book") && yaml.contains("updateBook:\n            update: Book")
                && yaml.contains("deleteBook:\n            delete: Book") && !yaml.contains("ping:"), "\(yaml)")
        #expect(scenario.untranslated.map(\.source) == ["library.graphql Query.today"], "a custom scalar's value is a guess")
        let catalog = try Self.load(scenario)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")

        // Every field of every entry answers: a query over the whole schema has no nulls where the schema says none.
        let endpoint = try GraphQLEndpoint(sdl: Self.library, data: try JSONValue(json: try #require(scenario.files["fixtures/data.json"])))
        let query = """
            { books { id title pages format author { name books { title } } } item(id: "book-2") { __typename title ... on Book { pages } } version }
            """
        let answer = await endpoint.answer(NetworkRequest(method: .post, url: URL(string: "https://library.example/graphql")!,
                                                          headerFields: [.contentType: "application/graphql"], body: Data(query.utf8)),
                                           state: endpoint.makeState())
        let body = String(decoding: answer.response.body, as: UTF8.self)
        #expect(answer.response.head.status == .ok && !body.contains("errors"), "\(body)")
        #expect(body.hasPrefix(#"{"data":{"books":[{"id":"book-1","title":"Book title 1","pages":1,"format":"HARDBACK","author":{"name":"Author name 1""#), "\(body)")
        #expect(body.contains(#""item":{"__typename":"Book","title":"Book title 2","pages":2}"#), "\(body)")
    }

    @Test func anIntrospectionResultBecomesTheSameSchema() async throws {
        let sdl = try String(contentsOf: Self.shippedSchema, encoding: .utf8)
        let endpoint = try GraphQLEndpoint(sdl: sdl, data: .object([:]))
        let answer = await endpoint.answer(NetworkRequest(method: .post, url: URL(string: "https://trips.example/graphql")!,
                                                          headerFields: [.contentType: "application/graphql"], body: Data(Self.introspection.utf8)),
                                           state: endpoint.makeState())
        #expect(answer.response.head.status == .ok)
        let scenario = try GraphQLImporter.importScenario(from: answer.response.body, file: "introspection.json",
                                                           options: ImportOptions(scenario: "trips", model: "FeedReader"))
        let written = String(decoding: try #require(scenario.files["fixtures/schema.graphql"]), as: UTF8.self)
        // The same types, fields, arguments and descriptions; an introspection result lists fields in its own order.
        let (imported, original) = (Self.shape(try buildSchema(source: written)), Self.shape(try buildSchema(source: sdl)))
        #expect(imported == original)
        #expect(original.contains("Trip.departs: String! \"Local time of departure, HH:MM.\"") && original.count > 30)
        #expect(try Self.load(scenario).problems.isEmpty)
    }

    @Test func aSchemaThatIsNotOneIsRefusedWithItsPlace() throws {
        let unknown = #expect(throws: ImportError.self) { try Self.importing("type Query {\n  me: User\n}", file: "broken.graphql") }
        #expect(unknown?.description.contains("User") == true, "\(String(describing: unknown))")
        let syntax = #expect(throws: ImportError.self) { try Self.importing("type Query {\n  me: String\n  you(: Int\n}", file: "broken.graphql") }
        #expect(syntax?.description.hasPrefix("broken.graphql:3:7: Syntax Error: Expected Name, found :") == true, "\(String(describing: syntax))")
        let notIntrospection = #expect(throws: ImportError.self) { try Self.importing(#"{"data": {"types": []}}"#, file: "result.json") }
        #expect(notIntrospection?.description.hasPrefix("result.json: /data: the JSON has no __schema") == true, "\(String(describing: notIntrospection))")
    }

    /// Every named type's kind and description, and every field's arguments, type and description, one line each, sorted.
    static func shape(_ schema: GraphQLSchema) -> [String] {
        var lines: [String] = []
        for (name, type) in schema.typeMap where !name.hasPrefix("__") {
            let described = (type as? GraphQLObjectType)?.description ?? (type as? GraphQLInterfaceType)?.description
                ?? (type as? GraphQLUnionType)?.description ?? (type as? GraphQLEnumType)?.description ?? (type as? GraphQLScalarType)?.description
            lines.append("\(name) \(Swift.type(of: type)) \(described ?? "")")
            let fields: GraphQLFieldMap? = if let object = type as? GraphQLObjectType { try? object.fields() }
                else if let interface = type as? GraphQLInterfaceType { try? interface.fields() } else { nil }
            for (fieldName, field) in fields ?? [:] {
                let args = field.args.map { "\($0.key): \($0.value.type)" }.sorted().joined(separator: ", ")
                lines.append("\(name).\(fieldName)(\(args)): \(field.type) \(field.description.map { "\"\($0)\"" } ?? "")".replacingOccurrences(of: "(): ", with: ": "))
            }
        }
        return lines.sorted()
    }

    /// The introspection query clients send (graphql-js's `getIntrospectionQuery`, without descriptions).
    static let introspection = """
        query IntrospectionQuery {
          __schema {
            queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
          }
        }
        fragment FullType on __Type {
          kind name description
          fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
        fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
        """
}
