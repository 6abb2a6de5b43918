package import Fakes
import Foundation
import GraphQL
import HTTPTypes
package import Services

/// A GraphQL server a scenario declares: a schema (SDL) and the data its queries read. It answers any query or
/// mutation the Model sends with exactly the fields it selects (aliases, fragments, variables, `__typename`, lists,
/// nulls), and one that does not validate as a GraphQL server would: 400 with `errors` and their locations.
/// GraphQLSwift parses, validates and executes; this type only reads the data.
package struct GraphQLEndpoint: Sendable, RequestAnswerer {
    /// A problem with the schema or the data, placed in the schema's text where it has a place.
    package struct Problem: Error, Sendable, Hashable {
        /// What is wrong and how to fix it.
        package var message: String
        /// In the schema file, 1-based; nil for a problem in the data (its message names the place).
        package var line: Int?
        /// In the schema file, 1-based.
        package var column: Int?
        /// Whether it is in the data rather than the schema.
        package var inData: Bool
    }

    private let schema: GraphQLSchema

    /// The endpoint for the schema `sdl` and the data `data` (a JSON object: the root types' fields by type name,
    /// `{"Query": {"me": …}}`, and each other object type's entries, `{"Trip": [{…}, …]}`); every problem found
    /// with either when they cannot serve.
    package init(sdl: String, data: JSONValue) throws(GraphQLEndpointProblems) {
        let built: GraphQLSchema
        do {
            built = try buildSchema(source: sdl)
        } catch let error as GraphQLError {
            throw GraphQLEndpointProblems(problems: Self.problems(error, inData: false))
        } catch {
            throw GraphQLEndpointProblems(problems: [Problem(message: "\(error)", inData: false)])
        }
        let schemaProblems = validateSchema(schema: built).flatMap { Self.problems($0, inData: false) }
        guard schemaProblems.isEmpty else { throw GraphQLEndpointProblems(problems: schemaProblems) }
        let (parsed, dataProblems) = GraphQLData.parse(data, for: built)
        guard dataProblems.isEmpty else { throw GraphQLEndpointProblems(problems: dataProblems) }
        do {
            schema = try ExecutableSchema.make(from: built) { source, args, _, info in
                try parsed.resolve(source, args: args, info: info)
            }
        } catch {
            throw GraphQLEndpointProblems(problems: [Problem(message: "\(error)", inData: false)])
        }
    }

    /// A GraphQLSwift error as problems: one per place it names (a syntax error names one).
    private static func problems(_ error: GraphQLError, inData: Bool) -> [Problem] {
        guard !error.locations.isEmpty else { return [Problem(message: error.message, inData: inData)] }
        return error.locations.map { Problem(message: error.message, line: $0.line, column: $0.column, inData: inData) }
    }

    package func answer(_ request: NetworkRequest) async -> ComputedAnswer {
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
            result = try await execute(schema: schema, documentAST: document, rootValue: GraphQLData.Root(), context: (),
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

/// Every problem a GraphQL endpoint's schema and data have.
package struct GraphQLEndpointProblems: Error, Sendable {
    /// The problems, in the order found.
    package var problems: [GraphQLEndpoint.Problem]
}
