import Fakes
import Foundation
import GraphQLFakes
import Services
import Yams

/// `response.graphql`: a GraphQL endpoint's schema file and its data, checked at load with each problem placed in
/// the file it is in.
extension ScenarioFileParser {
    static let graphqlKeys = ["schema", "data"]

    mutating func parseGraphQL(_ node: Node, at path: String) -> GraphQLEndpoint? {
        guard let keys = reader.mapping(node, at: path, allowed: Self.graphqlKeys, required: ["schema"]),
              let schemaNode = keys["schema"], let schemaFile = reader.string(schemaNode, at: "\(path).schema"),
              let schemaBytes = fixture(schemaFile, at: "\(path).schema", node: schemaNode) else { return nil }
        guard let sdl = String(data: schemaBytes, encoding: .utf8) else {
            reader.report("\(path).schema '\(schemaFile)' is not UTF-8 text; a schema is GraphQL SDL.", at: schemaNode)
            return nil
        }
        var data = JSONValue.object([:])
        var dataPlace = "\(path).data"
        switch keys["data"] {
        case nil:
            break
        case let dataNode? where dataNode.scalar != nil:
            guard let file = reader.string(dataNode, at: "\(path).data"),
                  let bytes = fixture(file, at: "\(path).data", node: dataNode) else { return nil }
            do {
                data = try JSONValue(json: bytes)
            } catch {
                reader.report("\(path).data '\(file)' is not JSON: \(error)", at: dataNode)
                return nil
            }
            dataPlace = "\(path).data '\(file)'"
        case let dataNode?:
            data = reader.json(dataNode)
        }
        do {
            return try GraphQLEndpoint(sdl: sdl, data: data)
        } catch {
            for problem in error.problems {
                if problem.inData {
                    reader.report("\(dataPlace): \(problem.message)", at: keys["data"] ?? node)
                } else {
                    reader.report("\(problem.message)", inFile: schemaFile, line: problem.line, column: problem.column)
                }
            }
            return nil
        }
    }
}
