import Fakes
import Foundation
import GraphQLFakes
import Services
import Yams

/// `response.graphql`: a GraphQL endpoint's schema file and its data, checked at load with each problem placed in
/// the file it is in.
extension ScenarioFileParser {
    static let graphqlKeys = ["schema", "data", "mutations", "subscriptions"]

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
        let mutations = keys["mutations"].map { parseMutations($0, at: "\(path).mutations") } ?? [:]
        let subscriptions = keys["subscriptions"].map { parseSubscriptions($0, at: "\(path).subscriptions") } ?? [:]
        do {
            let schema = graphQLSchemas[sdl] ?? Result { () throws(GraphQLEndpointProblems) in try GraphQLEndpoint.schema(sdl: sdl) }
            graphQLSchemas[sdl] = schema
            return try GraphQLEndpoint(schema: schema.get(), data: data, mutations: mutations, subscriptions: subscriptions)
        } catch {
            for problem in error.problems {
                switch problem.part {
                case .data: reader.report("\(dataPlace): \(problem.message)", at: keys["data"] ?? node)
                case .mutations: reader.report("\(path).\(problem.message)", at: keys["mutations"] ?? node)
                case .subscriptions: reader.report("\(path).\(problem.message)", at: keys["subscriptions"] ?? node)
                case .schema:
                    // Two routes may serve one schema: its problems are said once, at the file's own path.
                    let file = fixtureDirectories.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(schemaFile).path) }
                        .map { $0.appendingPathComponent(schemaFile).path } ?? schemaFile
                    let found = ScenarioProblem(file: file, line: problem.line, column: problem.column, message: problem.message)
                    if !reader.problems.contains(found) { reader.report(problem.message, inFile: file, line: problem.line, column: problem.column) }
                }
            }
            return nil
        }
    }

    /// `mutations`: each mutation field with what it does, `{insert: TYPE}`, `{update: TYPE}` or `{delete: TYPE}`.
    private mutating func parseMutations(_ node: Node, at path: String) -> [String: GraphQLEndpoint.Mutation] {
        guard case .mapping(let mapping) = node else {
            reader.report("\(path) must be a mapping of mutation fields to what each does, such as addTrip: {insert: Trip}; got \(reader.describe(node)).", at: node)
            return [:]
        }
        let effects = GraphQLEndpoint.Mutation.Effect.allCases.map(\.rawValue)
        var mutations: [String: GraphQLEndpoint.Mutation] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { continue }
            guard let keys = reader.mapping(value, at: "\(path).\(name)", allowed: effects) else { continue }
            guard keys.count == 1, let (effect, typeNode) = keys.first, let type = reader.string(typeNode, at: "\(path).\(name).\(effect)") else {
                reader.report("\(path).\(name) must say one thing it does (insert, update or delete) and to which type, such as {insert: Trip}.", at: value)
                continue
            }
            mutations[name] = GraphQLEndpoint.Mutation(GraphQLEndpoint.Mutation.Effect(rawValue: effect)!, type)
        }
        return mutations
    }

    /// `subscriptions`: each subscription field's events, `{at: +1s, value: …}` (the field's value, offset from the
    /// subscribe), in order, and optionally `{at: +5s, complete: true}` to end it.
    private mutating func parseSubscriptions(_ node: Node, at path: String) -> [String: [GraphQLEndpoint.Event]] {
        guard case .mapping(let mapping) = node else {
            reader.report("\(path) must be a mapping of subscription fields to their events, such as vehicleMoved: [{at: +1s, value: {…}}]; got \(reader.describe(node)).", at: node)
            return [:]
        }
        var subscriptions: [String: [GraphQLEndpoint.Event]] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { continue }
            let items = reader.sequence(value, at: "\(path).\(name)", of: "events") ?? []
            var events: [GraphQLEndpoint.Event] = []
            for (index, item) in items.enumerated() {
                let place = "\(path).\(name)[\(index)]"
                guard let keys = reader.mapping(item, at: place, allowed: ["at", "value", "complete"], required: ["at"]),
                      let offset = keys["at"].flatMap({ offset($0, at: "\(place).at") }) else { continue }
                if let previous = events.last, offset < previous.offset {
                    reader.report("\(place).at is before the previous event's; list events in the order they are sent.", at: keys["at"])
                }
                if events.last.map({ $0.value == nil }) ?? false {
                    reader.report("\(place) comes after the subscription's complete; remove it, or move the complete last.", at: item)
                }
                switch (keys["value"], keys["complete"]) {
                case (let valueNode?, nil):
                    events.append(.init(offset: offset, value: reader.json(valueNode)))
                case (nil, let completeNode?):
                    if reader.bool(completeNode, at: "\(place).complete") != true {
                        reader.report("\(place).complete must be true; leave it out for an event.", at: completeNode)
                    }
                    events.append(.init(offset: offset, value: nil))
                default:
                    reader.report("\(place) must have either 'value' (an event) or 'complete: true' (the end).", at: item)
                }
            }
            subscriptions[name] = events
        }
        return subscriptions
    }
}
