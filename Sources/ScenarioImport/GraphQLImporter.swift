public import Foundation
import GraphQL
import GraphQLFakes
import OrderedCollections
import ScenarioFormat
import Services
import Yams

/// A GraphQL schema (SDL, or an introspection result) → a scenario that serves it without a network: a route
/// answered by a GraphQL endpoint with the schema and generated data, mutations whose names say what they do wired
/// to insert, update or delete, and a WebSocket route whose subscriptions send one generated event each.
///
/// The data has two entries of every object type, each field given a value of its type (references between
/// entries by id), so any query the schema allows gets an answer with every field filled: a skeleton to edit into
/// the data a demo needs.
public enum GraphQLImporter {
    /// Builds the scenario from a schema's bytes: GraphQL SDL, or the JSON of an introspection query's result
    /// (`{"data": {"__schema": …}}` or `{"__schema": …}`).
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - file: Its path as the user named it, for errors and the scenario's description.
    ///   - options: The scenario's name and Model, and the origin the endpoint is at (default `http://localhost:8080`).
    /// - Throws: ``ImportError`` with the place: an SDL syntax error's line and column, the JSON pointer of an
    ///   introspection result's part that cannot be read, or the schema's first problem.
    public static func importScenario(from data: Data, file: String, options: ImportOptions) throws(ImportError) -> ImportedScenario {
        let sdl = try Self.sdl(from: data, file: file)
        let schema: GraphQLSchema
        do {
            schema = try buildSchema(source: sdl)
        } catch let error as GraphQLError {
            throw ImportError(file: file, line: error.locations.first?.line, column: error.locations.first?.column,
                              problem: "\(GraphQLEndpoint.problemText(error)); fix the schema and import it again.")
        } catch {
            throw ImportError(file: file, problem: "\(error)")
        }
        if let problem = validateSchema(schema: schema).first {
            throw ImportError(file: file, line: problem.locations.first?.line, column: problem.locations.first?.column, problem: problem.message)
        }
        let base = options.baseURL ?? ImportOptions.defaultBaseURL
        let generated = GraphQLDataGenerator(schema: schema).generate()
        var graphql: [(Yams.Node, Yams.Node)] = [
            (Yams.Node("schema"), .scenarioText("fixtures/schema.graphql")), (Yams.Node("data"), .scenarioText("fixtures/data.json")),
        ]
        let mutations = Self.mutations(of: schema)
        if !mutations.isEmpty {
            graphql.append((Yams.Node("mutations"), .mapping(.init(mutations.map { name, effect in
                (Yams.Node.scenarioText(name), Yams.Node.mapping(.init([(Yams.Node(effect.effect.rawValue), Yams.Node.scenarioText(effect.type))])))
            }))))
        }
        var routes: [Yams.Node] = [Self.route(name: "graphql", method: "POST", url: "\(base)/graphql", graphql: graphql)]
        if let subscription = schema.subscriptionType, let fields = try? subscription.fields(), !fields.isEmpty {
            var socketURL = URLComponents(string: base)
            let secure = socketURL?.scheme == "https"
            socketURL?.scheme = secure ? "wss" : "ws"
            let events = fields.keys.sorted().map { name in
                (Yams.Node.scenarioText(name), Yams.Node.sequence(.init([
                    .mapping(.init([(Yams.Node("at"), .scenarioText("+1s")), (Yams.Node("value"), generated.subscriptionEvents[name].map(Yams.Node.scenarioValue) ?? Yams.Node("null", Tag(.null)))])),
                ])))
            }
            let socketGraphQL: [(Yams.Node, Yams.Node)] = [
                (Yams.Node("schema"), .scenarioText("fixtures/schema.graphql")), (Yams.Node("data"), .scenarioText("fixtures/data.json")),
                (Yams.Node("subscriptions"), .mapping(.init(events))),
            ]
            routes.append(Self.route(name: "graphql-subscriptions", method: "GET", url: "\(socketURL?.string ?? base)/graphql", graphql: socketGraphQL))
        }
        let name = (file as NSString).lastPathComponent
        let types = generated.entries.count
        var untranslated: [UntranslatedPart] = []
        for field in generated.unanswerable {
            untranslated.append(UntranslatedPart(source: "\(file) \(field)", reason: "a field of a custom scalar type gets a string; write the value it needs in fixtures/data.json"))
        }
        return ImportedScenario(
            name: options.scenario,
            description: "Imported from GraphQL schema \(name): \(types) object type\(types == 1 ? "" : "s") with generated data.",
            model: options.model,
            header: [
                "Imported by scenarioctl from the GraphQL schema \(name); serves without a network.",
                "Any query the schema allows is answered from fixtures/data.json: two entries of every object type, each field filled.",
                "Edit the data into what your demo needs; `scenarioctl validate` checks it against the schema.",
            ],
            routes: routes,
            fixtures: ["fixtures/schema.graphql": Data(sdl.utf8), "fixtures/data.json": generated.json],
            untranslated: untranslated)
    }

    private static func route(name: String, method: String, url: String, graphql: [(Yams.Node, Yams.Node)]) -> Yams.Node {
        .mapping(.init([
            (Yams.Node("name"), .scenarioText(name)),
            (Yams.Node("request"), .mapping(.init([(Yams.Node("method"), Yams.Node(method)), (Yams.Node("url"), .scenarioText(url))]))),
            (Yams.Node("response"), .mapping(.init([(Yams.Node("graphql"), .mapping(.init(graphql)))]))),
        ]))
    }

    /// Mutations whose names say what they do to a type they return: `create`/`add` insert, `update`/`edit`/`set`
    /// update, `delete`/`remove` delete. The others answer from the data's `Mutation`.
    static func mutations(of schema: GraphQLSchema) -> [(String, (effect: GraphQLMutationEffect, type: String))] {
        guard let root = schema.mutationType, let fields = try? root.fields() else { return [] }
        let verbs: [(prefix: String, effect: GraphQLMutationEffect)] = [
            ("create", .insert), ("add", .insert), ("update", .update), ("edit", .update), ("set", .update),
            ("delete", .delete), ("remove", .delete),
        ]
        return fields.keys.sorted().compactMap { name in
            guard let verb = verbs.first(where: { name.hasPrefix($0.prefix) }) else { return nil }
            let returned = getNamedType(type: fields[name]!.type)
            // The type changed: the one returned, else the one the name says after the verb (deleteTrip: Boolean).
            let typeName = (returned as? GraphQLObjectType)?.name ?? String(name.dropFirst(verb.prefix.count))
            guard schema.getType(name: typeName) is GraphQLObjectType else { return nil }
            return (name, (verb.effect, typeName))
        }
    }
}

/// What a mutation does to the data, as the scenario's `mutations` says it.
enum GraphQLMutationEffect: String {
    case insert, update, delete
}
