package import Fakes
import Foundation
package import GraphQL
import OrderedCollections
import HTTPTypes
package import Services

/// A GraphQL server a scenario declares: a schema (SDL) and the data its queries read. It answers any query or
/// mutation the Model sends with exactly the fields it selects (aliases, fragments, variables, `__typename`, lists,
/// nulls), and one that does not validate as a GraphQL server would: 400 with `errors` and their locations.
/// GraphQLSwift parses, validates and executes; this type only reads the data.
package struct GraphQLEndpoint: Sendable, RequestAnswerer {
    /// A problem with the schema, the data or the mutations, placed in the schema's text where it has a place.
    package struct Problem: Error, Sendable, Hashable {
        /// Which of the endpoint's parts it is in.
        package enum Part: Sendable, Hashable {
            case schema, data, mutations, subscriptions
        }

        /// What is wrong and how to fix it.
        package var message: String
        /// In the schema file, 1-based; nil elsewhere (the message names the place).
        package var line: Int?
        /// In the schema file, 1-based.
        package var column: Int?
        /// Where it is.
        package var part: Part
    }

    /// What a mutation does to the data: adds an entry of a type, changes one (by its id) or removes one.
    package struct Mutation: Sendable, Hashable {
        /// The three changes.
        package enum Effect: String, Sendable, CaseIterable {
            case insert, update, delete
        }

        package var effect: Effect
        /// The object type whose entries it changes.
        package var type: String

        package init(_ effect: Effect, _ type: String) {
            self.effect = effect
            self.type = type
        }
    }

    /// The executable schema, freed with the last copy of this endpoint (a catalog reload drops the old ones).
    private let lifetime: SchemaLifetime
    var schema: GraphQLSchema { lifetime.schema }
    private let data: GraphQLData
    /// Each subscription field's events, in order.
    let subscriptions: [String: [Event]]

    /// The endpoint for the schema `sdl`, the data `data` (a JSON object: the root types' fields by type name,
    /// `{"Query": {"me": …}}`, and each other object type's entries, `{"Trip": [{…}, …]}`) and what each mutation
    /// field named in `mutations` does to it (any other mutation answers from the data's `Mutation`); every problem
    /// found with them when they cannot serve.
    package init(sdl: String, data: JSONValue, mutations: [String: Mutation] = [:],
                 subscriptions: [String: [Event]] = [:]) throws(GraphQLEndpointProblems) {
        try self.init(schema: Self.schema(sdl: sdl), data: data, mutations: mutations, subscriptions: subscriptions)
    }

    /// The endpoint for a schema ``schema(sdl:)`` made, which several endpoints may share; the rest as
    /// ``init(sdl:data:mutations:subscriptions:)``.
    package init(schema made: SchemaLifetime, data: JSONValue, mutations: [String: Mutation] = [:],
                 subscriptions: [String: [Event]] = [:]) throws(GraphQLEndpointProblems) {
        var (parsed, problems) = GraphQLData.parse(data, for: made.schema)
        problems += GraphQLData.check(mutations, for: made.schema)
        problems += Self.check(subscriptions, for: made.schema)
        guard problems.isEmpty else { throw GraphQLEndpointProblems(problems: problems) }
        parsed.mutations = mutations
        self.data = parsed
        self.subscriptions = subscriptions
        self.lifetime = made
    }

    /// The executable schema of the SDL `sdl`, checked: every problem found in it when it cannot serve. Made once
    /// for the routes of a scenario file that name one schema (building it is most of a scenario's load).
    package static func schema(sdl: String) throws(GraphQLEndpointProblems) -> SchemaLifetime {
        let built: GraphQLSchema
        let unions: SDLUnions
        do {
            unions = try SDLUnions(sdl: sdl)
            built = try buildSchema(source: unions.rest)
        } catch let error as GraphQLError {
            throw GraphQLEndpointProblems(problems: Self.problems(error))
        } catch {
            throw GraphQLEndpointProblems(problems: [Problem(message: "\(error)", part: .schema)])
        }
        let objects = Set(built.typeMap.values.compactMap { ($0 as? GraphQLObjectType)?.name })
        let unknownMembers = unions.unions.flatMap { union in
            union.members.filter { !objects.contains($0) }.map { member in
                Problem(message: "Union \(union.name) can only include object types, and \(member) is not one.\(Suggestion.didYouMean(member, among: objects.sorted()))",
                        line: union.line, column: union.column, part: .schema)
            }
        }
        // From here the schema made owns the built one's shared types; until then they are let go of here.
        let made: SchemaLifetime
        do {
            guard unknownMembers.isEmpty else { throw GraphQLEndpointProblems(problems: unknownMembers) }
            made = SchemaLifetime(try ExecutableSchema.make(from: built, unions: unions.unions) { source, args, context, info in
                guard let session = context as? GraphQLSessionData else { throw GraphQLError(message: "No session's data to read.") }
                return try session.resolve(source, args: args, info: info)
            })
        } catch {
            ExecutableSchema.breakCycles(in: built.typeMap.values)
            throw (error as? GraphQLEndpointProblems) ?? GraphQLEndpointProblems(problems: [Problem(message: "\(error)", part: .schema)])
        }
        let schemaProblems = validateSchema(schema: made.schema).flatMap { Self.problems($0) }
        guard schemaProblems.isEmpty else { throw GraphQLEndpointProblems(problems: schemaProblems) }
        return made
    }

    /// The scenario's subscriptions checked against the schema: each names a field of the subscription type.
    private static func check(_ subscriptions: [String: [Event]], for schema: GraphQLSchema) -> [Problem] {
        guard !subscriptions.isEmpty else { return [] }
        guard let root = schema.subscriptionType else {
            return [Problem(message: "The schema has no subscription type, so nothing can subscribe; remove 'subscriptions' or add 'type Subscription' to the schema.", part: .subscriptions)]
        }
        let fields = ((try? root.fields()).map { Array($0.keys) } ?? []).sorted()
        return subscriptions.keys.sorted().filter { !fields.contains($0) }.map { name in
            Problem(message: "subscriptions.\(name) names a field \(root.name) does not have.\(Suggestion.didYouMean(name, among: fields))", part: .subscriptions)
        }
    }

    /// A GraphQLSwift error as problems in the schema: one per place it names (a syntax error names one). Its
    /// message's first line only, without the place it repeats: the problem gives the place, and an excerpt of the
    /// source does not fit a `file:line:column:` line.
    private static func problems(_ error: GraphQLError) -> [Problem] {
        let message = problemText(error)
        guard !error.locations.isEmpty else { return [Problem(message: message, part: .schema)] }
        return error.locations.map { Problem(message: message, line: $0.line, column: $0.column, part: .schema) }
    }

    /// A GraphQLSwift error's message for a `file:line:column:` line: its first line, without the place it repeats.
    package static func problemText(_ error: GraphQLError) -> String {
        let firstLine = error.message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? error.message
        return firstLine.replacing(#/ GraphQL \(\d+:\d+\)/#, with: ":")
    }

    package func makeState() -> any Sendable { GraphQLSessionData(data) }

    package func answer(_ request: NetworkRequest, state: any Sendable) async -> ComputedAnswer {
        let operation: GraphQLOperation
        switch GraphQLOperation.read(from: request) {
        case .success(let read): operation = read
        case .failure(let refusal): return Self.refused([GraphQLError(message: refusal.message)], field: refusal.field, actual: refusal.actual)
        }
        let document: Document
        do {
            document = try parse(source: Source(body: operation.query, name: "GraphQL request"))
        } catch {
            return Self.refused([GraphQLError(error)], field: "/body/query", actual: operation.query)
        }
        let invalid = validate(schema: schema, ast: document)
        guard invalid.isEmpty else { return Self.refused(invalid, field: "/body/query", actual: operation.query) }
        let result: GraphQLResult
        do {
            result = try await execute(schema: schema, documentAST: document, rootValue: GraphQLData.Root(), context: state,
                                       variableValues: operation.variables, operationName: operation.name)
        } catch {
            return Self.refused([GraphQLError(error)], field: "/body", actual: operation.name ?? "")
        }
        // No data at all is a request error (an unknown operation, bad variables): the server refused it.
        guard result.data != nil else { return Self.refused(result.errors, field: "/body/variables", actual: operation.name ?? "") }
        return ComputedAnswer(Self.response(.ok, result))
    }

    /// 400 with `errors`, as a GraphQL server answers a request it cannot execute; the first error is the near miss.
    private static func refused(_ errors: [GraphQLError], field: String, actual: String) -> ComputedAnswer {
        let message = errors.first.map { error in
            error.locations.first.map { "\(error.message) (line \($0.line), column \($0.column))" } ?? error.message
        } ?? "the request is not a GraphQL request"
        return ComputedAnswer(response(.badRequest, GraphQLResult(errors: errors)),
                              refusal: NearMiss.Difference(field: field, expected: "a GraphQL request valid against the schema: \(message)", actual: actual))
    }

    private static func response(_ status: HTTPResponse.Status, _ result: GraphQLResult) -> NetworkResponse {
        let body = result.orderedJSON
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        return NetworkResponse(head: HTTPResponse(status: status, headerFields: fields), body: body)
    }
}

/// An executable schema's owner: its types are let go of with it (``ExecutableSchema/breakCycles(in:)``).
package final class SchemaLifetime: Sendable {
    let schema: GraphQLSchema

    init(_ schema: GraphQLSchema) {
        self.schema = schema
    }

    deinit {
        ExecutableSchema.breakCycles(in: schema.typeMap.values)
    }
}

/// Every problem a GraphQL endpoint's schema and data have.
package struct GraphQLEndpointProblems: Error, Sendable {
    /// The problems, in the order found.
    package var problems: [GraphQLEndpoint.Problem]
}
