import Foundation
import GraphQL
import HTTPTypes
import Services

/// What a GraphQL request asks, read as GraphQL over HTTP sends it: a POST whose JSON body has `query`,
/// `operationName` and `variables`, a POST of `application/graphql` text, or a GET with them in the query string.
struct GraphQLOperation {
    var query: String
    var name: String?
    var variables: [String: Map] = [:]

    /// Why a request is not a GraphQL request: the message for its `errors`, and its near miss's field and value.
    struct Refusal: Error {
        var message: String
        var field: String
        var actual: String
    }

    static func read(from request: NetworkRequest) -> Result<GraphQLOperation, Refusal> {
        if request.head.method == .get {
            let items = URLComponents(string: request.url)?.queryItems ?? []
            func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
            guard let query = item("query") else {
                return .failure(Refusal(message: "A GraphQL GET request needs its query in the 'query' parameter.", field: "/query/query", actual: "(none)"))
            }
            var operation = GraphQLOperation(query: query, name: item("operationName"))
            if let text = item("variables") {
                guard let variables = try? JSONDecoder().decode([String: Map].self, from: Data(text.utf8)) else {
                    return .failure(Refusal(message: "The 'variables' parameter is not a JSON object.", field: "/query/variables", actual: text))
                }
                operation.variables = variables
            }
            return .success(operation)
        }
        if request.head.headerFields[.contentType]?.lowercased().hasPrefix("application/graphql") == true {
            return .success(GraphQLOperation(query: String(decoding: request.body, as: UTF8.self)))
        }
        struct Body: Decodable {
            var query: String?
            var operationName: String?
            var variables: [String: Map]?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: request.body) else {
            let text = String(decoding: request.body.prefix(200), as: UTF8.self)
            return .failure(Refusal(message: "The body is not a GraphQL request: send JSON with 'query' (and 'operationName', 'variables').", field: "/body", actual: text.isEmpty ? "(empty)" : text))
        }
        guard let query = body.query else {
            return .failure(Refusal(message: "The body has no 'query'; a GraphQL request sends its document there.", field: "/body/query", actual: "(none)"))
        }
        return .success(GraphQLOperation(query: query, name: body.operationName, variables: body.variables ?? [:]))
    }
}
