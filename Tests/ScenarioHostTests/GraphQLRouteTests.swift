import Fakes
import Foundation
import GraphQL
@testable import GraphQLFakes
import HTTPTypes
import ScenarioFormat
import ScenarioHost
import Services
import Synchronization
import Testing

/// A route answered by a GraphQL endpoint: any query validated against its schema and answered with exactly its
/// selection from the scenario's data, a query that does not validate refused as a server would (and journaled with
/// why), and the schema's and data's problems found at load, each at its place.
@Suite struct GraphQLRouteTests {
    static let schema = """
        "A planned trip."
        type Trip { id: ID!, from: String!, to: String!, legs: [Leg!]!, vehicle: Vehicle }
        type Leg { id: ID!, mode: Mode!, minutes: Int! }
        enum Mode { WALK BUS TRAIN }
        interface Vehicle { id: ID!, name: String! }
        type Bus implements Vehicle { id: ID!, name: String!, line: Int! }
        type Train implements Vehicle { id: ID!, name: String!, carriages: Int! }
        union SearchResult = Trip | Bus
        type User { name: String!, favourite: Trip }
        type Query { trip(id: ID!): Trip, trips(from: String): [Trip!]!, me: User!, search(term: String): [SearchResult!]! }
        input TripInput { from: String!, to: String!, legs: [ID!] }
        type Position { vehicle: Vehicle!, lat: Float!, lon: Float! }
        type Subscription { vehicleMoved(id: ID!): Position! }
        type Mutation { saveTrip(id: ID!): Trip, addTrip(input: TripInput!): Trip!, renameTrip(id: ID!, to: String!): Trip, deleteTrip(id: ID!): Boolean! }

        """

    static let data = """
        {
          "Query": {"me": {"name": "Ada", "favourite": "t2"}},
          "Mutation": {"saveTrip": "t1"},
          "Trip": [
            {"id": "t1", "from": "Oslo", "to": "Bergen", "legs": ["l1", "l2"],
             "vehicle": {"__typename": "Train", "id": "v1", "name": "Bergensbanen", "carriages": 7}},
            {"id": "t2", "from": "Oslo", "to": "Drammen", "legs": ["l3"], "vehicle": "b1"},
            {"id": "t3", "from": "Bergen", "to": "Voss", "legs": []}
          ],
          "Leg": [{"id": "l1", "mode": "WALK", "minutes": 5}, {"id": "l2", "mode": "TRAIN", "minutes": 400},
                  {"id": "l3", "mode": "BUS", "minutes": 40}],
          "Bus": [{"id": "b1", "name": "Drammen express", "line": 100}]
        }
        """

    static let scenario = """
        description: A trip planner's GraphQL API.
        model: FeedReader
        network:
          routes:
            - name: broken-plan
              request: {method: POST, url: https://trips.example/graphql, bodyFields: {/operationName: Broken}}
              response: {status: 200, body: {errors: [{message: planner down}], data: null}}
            - name: trips
              request: {url: https://trips.example/graphql}
              response:
                graphql:
                  schema: schema.graphql
                  data: data.json
                  mutations: {addTrip: {insert: Trip}, renameTrip: {update: Trip}, deleteTrip: {delete: Trip}}
            - name: trips-live
              request: {method: GET, url: wss://trips.example/graphql}
              response:
                graphql:
                  schema: schema.graphql
                  data: data.json
                  subscriptions:
                    vehicleMoved:
                      - {at: +1s, value: {vehicle: b1, lat: 59.91, lon: 10.75}}
                      - {at: +2s, value: {vehicle: b1, lat: 59.74, lon: 10.2}}
                      - {at: +3s, complete: true}
        """

    /// A catalog with `scenario` as `trips` beside its schema and data, as given.
    static func catalog(scenario: String = scenario, schema: String = schema, data: String = data) throws -> ScenarioCatalog {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graphql-\(UUID().uuidString)/trips")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(scenario.utf8).write(to: directory.appendingPathComponent("scenario.yaml"))
        try Data(schema.utf8).write(to: directory.appendingPathComponent("schema.graphql"))
        try Data(data.utf8).write(to: directory.appendingPathComponent("data.json"))
        return ScenarioCatalog.load(from: [directory.deletingLastPathComponent()], models: shippedModels.names)
    }

    static func session() async throws -> Session {
        let catalog = try catalog()
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        return try await SessionHost(catalog: catalog, models: shippedModels).createSession(of: "trips")
    }

    /// POSTs `query` as GraphQL over HTTP does; the status, the body as text, and the journal's entry.
    static func post(_ session: Session, _ query: String, variables: [String: Any] = [:], operationName: String? = nil) async throws
        -> (status: Int, body: String, entry: NetworkExchange) {
        var body: [String: Any] = ["query": query, "variables": variables]
        if let operationName { body["operationName"] = operationName }
        let request = NetworkRequest(method: .post, url: URL(string: "https://trips.example/graphql")!,
                                     headerFields: [.contentType: "application/json"],
                                     body: try JSONSerialization.data(withJSONObject: body))
        let sent = try await session.sendFromOutside(request)
        guard case .success(let response)? = sent.result else { throw GraphQLTestError.noAnswer("\(String(describing: sent.result))") }
        let sequence = try #require(sent.arrived).sequence
        let entry = try #require(session.journalEntry(sequence))
        return (response.head.status.code, String(decoding: response.body, as: UTF8.self), entry)
    }

    @Test func aQueryGetsExactlyItsSelectionWithAliasesFragmentsVariablesAndAbstractTypes() async throws {
        let session = try await Self.session()
        let query = """
            query Plan($id: ID!) {
              trip(id: $id) { __typename from to legs { mode minutes } vehicle { __typename name ...on Train { carriages } } }
              me { name favourite { to vehicle { ... on Bus { line } } } }
              fromOslo: trips(from: "Oslo") { ...Ends }
              nowhere: trips(from: "Nowhere") { id }
              search { __typename ... on Bus { name } ... on Trip { id } }
            }
            fragment Ends on Trip { id to }
            """
        let answer = try await Self.post(session, query, variables: ["id": "t1"], operationName: "Plan")
        #expect(answer.status == 200)
        #expect(answer.body == """
            {"data":{"trip":{"__typename":"Trip","from":"Oslo","to":"Bergen","legs":[{"mode":"WALK","minutes":5},{"mode":"TRAIN","minutes":400}],\
            "vehicle":{"__typename":"Train","name":"Bergensbanen","carriages":7}},"me":{"name":"Ada","favourite":{"to":"Drammen","vehicle":{"line":100}}},\
            "fromOslo":[{"id":"t1","to":"Bergen"},{"id":"t2","to":"Drammen"}],"nowhere":[],\
            "search":[{"__typename":"Trip","id":"t1"},{"__typename":"Trip","id":"t2"},{"__typename":"Trip","id":"t3"},{"__typename":"Bus","name":"Drammen express"}]}}
            """)
        #expect(answer.entry.route == "trips" && answer.entry.status == 200 && answer.entry.nearMisses == nil)

        // A trip with no such id is null; a mutation reads the data's Mutation.
        #expect(try await Self.post(session, #"{ trip(id: "t9") { id } }"#).body == #"{"data":{"trip":null}}"#)
        #expect(try await Self.post(session, #"mutation { saveTrip(id: "t1") { to } }"#).body == #"{"data":{"saveTrip":{"to":"Bergen"}}}"#)
    }

    @Test func aQueryThatDoesNotValidateIsRefusedWithItsLocationAndJournaledWithWhy() async throws {
        let session = try await Self.session()
        let answer = try await Self.post(session, "{ trip(id: \"t1\") {\n  form } }")
        #expect(answer.status == 400)
        #expect(answer.body.contains(#"Cannot query field \"form\" on type \"Trip\". Did you mean \"from\"?"#), "\(answer.body)")
        #expect(answer.body.contains(#""locations":[{"line":2,"column":3}]"#), "\(answer.body)")
        let miss = try #require(answer.entry.nearMisses?.first)
        #expect(miss.route == "trips" && miss.field == "/body/query" && miss.expected.contains("(line 2, column 3)"))

        #expect(try await Self.post(session, "{ trip(").status == 400, "a syntax error")
        #expect(try await Self.post(session, "query Q($id: ID!) { trip(id: $id) { id } }").status == 400, "a variable not given")
        #expect(try await Self.post(session, "query Q { me { name } }", operationName: "Other").status == 400, "an operation the document has not")
        for (method, url, type, body) in [(HTTPRequest.Method.post, "https://trips.example/graphql", "text/plain", "not json"),
                                          (.post, "https://trips.example/graphql", "application/json", #"{"variables":{}}"#)] {
            let sent = try await session.sendFromOutside(NetworkRequest(method: method, url: URL(string: url)!, headerFields: [.contentType: type], body: Data(body.utf8)))
            guard case .success(let response)? = sent.result else { Issue.record("no answer to \(body)"); continue }
            #expect(response.head.status == .badRequest && String(decoding: response.body, as: UTF8.self).hasPrefix(#"{"errors":[{"message":"The body"#), "\(body)")
        }
        // GraphQL over HTTP's other forms: a GET with the query in the URL, and a POST of application/graphql.
        let query = "{ trip(id: \"t3\") { to } }".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let get = try await session.sendFromOutside(NetworkRequest(method: .get, url: URL(string: "https://trips.example/graphql?query=\(query)")!))
        guard case .success(let got)? = get.result else { Issue.record("no answer to the GET"); return }
        #expect(String(decoding: got.body, as: UTF8.self) == #"{"data":{"trip":{"to":"Voss"}}}"#)
        // A route before the endpoint answers one operation its own way.
        let broken = try await Self.post(session, "query Broken { me { name } }", operationName: "Broken")
        #expect(broken.body == #"{"data":null,"errors":[{"message":"planner down"}]}"# && broken.entry.route == "broken-plan")
    }

    @Test func mutationsChangeTheSessionsDataUntilItsResetAndARewindReplaysThem() async throws {
        let session = try await Self.session()
        let ends = "{ trips(from: \"Oslo\") { id to legs { minutes } } }"
        let before = try await Self.post(session, ends).body
        let added = try await Self.post(session, #"mutation { addTrip(input: {from: "Oslo", to: "Hamar", legs: ["l3"]}) { id to } }"#)
        #expect(added.body == #"{"data":{"addTrip":{"id":"trip-1","to":"Hamar"}}}"#)
        #expect(try await Self.post(session, #"mutation { renameTrip(id: "t2", to: "Kongsberg") { id to } }"#).body
            == #"{"data":{"renameTrip":{"id":"t2","to":"Kongsberg"}}}"#)
        #expect(try await Self.post(session, #"mutation { renameTrip(id: "t9", to: "Nowhere") { id } }"#).body == #"{"data":{"renameTrip":null}}"#)
        #expect(try await Self.post(session, #"mutation { deleteTrip(id: "t1") }"#).body == #"{"data":{"deleteTrip":true}}"#)
        let after = try await Self.post(session, ends).body
        #expect(after == #"{"data":{"trips":[{"id":"t2","to":"Kongsberg","legs":[{"minutes":40}]},{"id":"trip-1","to":"Hamar","legs":[{"minutes":40}]}]}}"#)

        // Another session reads the scenario's data; a rewind to just after the insert replays it and nothing later.
        let other = try await SessionHost(catalog: try Self.catalog(), models: shippedModels).createSession(of: "trips")
        #expect(try await Self.post(other, ends).body == before)
        let steps = await session.history().steps.count
        _ = try await session.rewind(to: steps - 5)
        #expect(try await Self.post(session, ends).body == #"{"data":{"trips":[{"id":"t1","to":"Bergen","legs":[{"minutes":5},{"minutes":400}]},{"id":"t2","to":"Drammen","legs":[{"minutes":40}]},{"id":"trip-1","to":"Hamar","legs":[{"minutes":40}]}]}}"#)
        try await session.reset()
        #expect(try await Self.post(session, ends).body == before)
    }

    /// What a client was sent, in order.
    final class Heard: Sendable {
        let lines = Mutex<[String]>([])
        func receive(_ event: OutsideSocket.Event) {
            let line = switch event {
            case .message(.text(let text)): text
            case .message(.binary(let data)): "\(data.count) bytes"
            case .closed(let frame): "closed \(frame?.code ?? 0) \(frame?.reason ?? "")"
            case .broken(let fault): "broken \(fault.rawValue)"
            }
            lines.withLock { $0.append(line) }
        }
        func take() -> [String] { lines.withLock { lines in defer { lines = [] }; return lines } }
    }

    @Test func aSubscriptionOverAWebSocketSendsItsEventsOnTheSessionsClock() async throws {
        let session = try await Self.session()
        let heard = Heard()
        let socketURL = NetworkRequest(method: .get, url: URL(string: "wss://trips.example/graphql")!)
        let opened = try await session.openSocketFromOutside(socketURL) { heard.receive($0) }
        let sequence = try #require(opened.arrived).sequence
        let socket = try #require(session.outsideSocket(sequence))
        try await session.send(.text(#"{"type":"connection_init","payload":{}}"#), on: socket)
        #expect(heard.take() == [#"{"type":"connection_ack"}"#])

        let subscribe = #"{"type":"subscribe","id":"1","payload":{"query":"subscription Moves($id: ID!) { vehicleMoved(id: $id) { lat vehicle { __typename name } } }","variables":{"id":"b1"}}}"#
        try await session.send(.text(subscribe), on: socket)
        #expect(heard.take().isEmpty, "the first event is due at +1s")
        _ = try await session.advanceClock(by: .seconds(1))
        #expect(heard.take() == [#"{"id":"1","payload":{"data":{"vehicleMoved":{"lat":59.91,"vehicle":{"__typename":"Bus","name":"Drammen express"}}}},"type":"next"}"#])
        _ = try await session.advanceClock(by: .seconds(2))
        #expect(heard.take() == [#"{"id":"1","payload":{"data":{"vehicleMoved":{"lat":59.74,"vehicle":{"__typename":"Bus","name":"Drammen express"}}}},"type":"next"}"#,
                                 #"{"id":"1","type":"complete"}"#])

        // The client's complete withdraws what is still to come; a query over the socket answers at once.
        try await session.send(.text(subscribe.replacingOccurrences(of: #""id":"1""#, with: #""id":"2""#)), on: socket)
        try await session.send(.text(#"{"type":"complete","id":"2"}"#), on: socket)
        try await session.send(.text(#"{"type":"subscribe","id":"3","payload":{"query":"{ trip(id: \"t3\") { to } }"}}"#), on: socket)
        _ = try await session.advanceClock(by: .seconds(5))
        #expect(heard.take() == [#"{"id":"3","payload":{"data":{"trip":{"to":"Voss"}}},"type":"next"}"#, #"{"id":"3","type":"complete"}"#])
        // A document that does not validate gets an error for its id; a subscribe before connection_init closes 4401.
        try await session.send(.text(#"{"type":"subscribe","id":"4","payload":{"query":"subscription { vehicleMoved { lat } }"}}"#), on: socket)
        #expect(heard.take().first?.hasPrefix(#"{"id":"4","payload":[{"locations":"#) == true)
        let second = try await session.openSocketFromOutside(socketURL) { heard.receive($0) }
        let secondSequence = try #require(second.arrived).sequence
        let early = try #require(session.outsideSocket(secondSequence))
        try await session.send(.text(subscribe), on: early)
        #expect(heard.take() == ["closed 4401 Unauthorized"])
        #expect(session.journalEntry(sequence)?.stream?.chunks.filter { $0.sent == true }.count == 6)
    }

    @Test func theSchemasAndTheDatasProblemsAreFoundAtLoadEachAtItsPlace() throws {
        let syntax = try Self.catalog(schema: "type Query {\n  me: User\n  trips: [Trip!\n}\n")
        // Said once though two routes serve the schema, at the schema file's own path, without GraphQLSwift's excerpt.
        let problems = syntax.problems["trips"] ?? []
        #expect(problems.count == 1 && problems.first?.file.hasSuffix("/trips/schema.graphql") == true, "\(problems)")
        #expect(problems.first?.line == 4 && problems.first?.column == 1 && problems.first?.message == "Syntax Error: Expected ], found }", "\(problems)")

        let member = try Self.catalog(schema: Self.schema.replacingOccurrences(of: "Trip | Bus", with: "Trip | Bsu"))
        let memberProblem = try #require(member.problems["trips"]?.first)
        #expect(memberProblem.line == 8 && memberProblem.column == 1 && memberProblem.message.contains("Did you mean 'Bus'?"), "\(memberProblem)")

        let misspelt = try Self.catalog(data: #"{"Trp": [], "Trip": [{"id": "t1", "form": "Oslo"}], "Query": {"mee": {}}}"#)
        let dataProblems = misspelt.problems["trips"] ?? []
        let messages = dataProblems.map(\.message).joined(separator: "\n")
        #expect(messages.contains("'Trp'") && messages.contains("Did you mean 'Trip'?"), "\(messages)")
        #expect(messages.contains("'form'") && messages.contains("Did you mean 'from'?"), "\(messages)")
        #expect(messages.contains("'mee'") && messages.contains("Did you mean 'me'?"), "\(messages)")
        // Both routes read the data: each says so at its own 'data'.
        #expect(dataProblems.count == 6 && dataProblems.allSatisfy { $0.file.hasSuffix("scenario.yaml") && [13, 20].contains($0.line) }, "placed at each route's data: \(dataProblems)")

        let mutations = try Self.catalog(scenario: Self.scenario.replacingOccurrences(of: "renameTrip: {update: Trip}", with: "renamTrip: {update: Trp}"))
        let mutationMessages = (mutations.problems["trips"] ?? []).map(\.message).joined(separator: "\n")
        #expect(mutationMessages.contains("Did you mean 'renameTrip'?") && mutationMessages.contains("Did you mean 'Trip'?"), "\(mutationMessages)")
    }

    /// Making a schema is most of a scenario's load (GraphQLSwift builds and validates it), so the routes of one file
    /// that serve one schema (its queries and its subscriptions) share the one made, each with its own data.
    @Test func theRoutesOfAFileThatServeOneSchemaShareIt() throws {
        let catalog = try Self.catalog()
        let endpoints = try #require(catalog.scenarios["trips"]).routes.flatMap(\.outcomes).compactMap { $0.answerer as? GraphQLEndpoint }
        #expect(endpoints.count == 2, "\(endpoints.count) GraphQL answers")
        #expect(endpoints.count == 2 && endpoints[0].schema === endpoints[1].schema, "each route made the schema again")
        // Another file's routes make their own: a schema is shared within a file's load only.
        let other = try Self.catalog()
        let otherEndpoint = try #require(other.scenarios["trips"]?.routes.flatMap(\.outcomes).compactMap { $0.answerer as? GraphQLEndpoint }.first)
        #expect(otherEndpoint.schema !== endpoints.first?.schema)
    }

    /// GraphQLSwift's types hold each other strongly, so a schema is never freed on its own: every catalog reload
    /// leaked each GraphQL route's schema until the endpoint broke the cycles as it was let go of (and broke those of
    /// the schema built from the SDL once the one it serves was made).
    @Test func anEndpointLetsGoOfItsSchemaAndOfTheOneBuiltFromItsSDL() throws {
        weak var served: GraphQLObjectType?
        weak var built: GraphQLObjectType?
        do {
            let endpoint = try GraphQLEndpoint(sdl: Self.schema, data: .object([:]))
            served = endpoint.schema.getType(name: "Trip") as? GraphQLObjectType
            #expect(served != nil)
            // As the endpoint builds it: the unions taken out (GraphQLSwift's own could never be freed).
            let unions = try SDLUnions(sdl: Self.schema)
            #expect(unions.unions.map(\.members) == [["Trip", "Bus"]])
            let schema = try buildSchema(source: unions.rest)
            built = schema.getType(name: "Trip") as? GraphQLObjectType
            // The input types are shared, and let go of with the schema made.
            let made = try ExecutableSchema.make(from: schema, unions: unions.unions) { _, _, _, _ in nil }
            #expect(made.getType(name: "SearchResult") is GraphQLUnionType)
            _ = SchemaLifetime(made)
        }
        #expect(served == nil, "the schema served outlived its endpoint")
        #expect(built == nil, "the schema built from the SDL outlived the one made from it")
    }
}

enum GraphQLTestError: Error { case noAnswer(String) }