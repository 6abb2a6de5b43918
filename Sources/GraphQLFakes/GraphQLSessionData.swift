import Fakes
import GraphQL
import OrderedCollections
import Services
import Synchronization

/// One session's data of a GraphQL endpoint: what its queries read and its mutations change. The executor reads it
/// from several fields at once, so it is behind a lock; mutations run one at a time, as GraphQL runs them.
final class GraphQLSessionData: Sendable {
    private let data: Mutex<GraphQLData>

    init(_ data: GraphQLData) {
        self.data = Mutex(data)
    }

    /// Field `info.fieldName` of `source`: a mutation the scenario gave an effect changes the data first.
    func resolve(_ source: any Sendable, args: Map, info: GraphQLResolveInfo) throws -> (any Sendable)? {
        let current = data.withLock { $0 }
        guard source is GraphQLData.Root, info.parentType.name == info.schema.mutationType?.name,
              let mutation = current.mutations[info.fieldName] else {
            return try current.resolve(source, args: args, info: info)
        }
        let changed = try data.withLock { try $0.apply(mutation, args: args, field: info.fieldName) }
        let place = "\(info.parentType.name).\(info.fieldName)"
        // A mutation answers with the entry it changed, or for a scalar result whether it found one (Boolean) or its id.
        switch (getNamedType(type: info.returnType) as? GraphQLScalarType)?.name {
        case "Boolean"?: return Map.bool(changed != nil)
        case "ID"?, "String"?: return changed?["id"].map(GraphQLData.map(of:))
        default: return try current.value(changed.map { .object($0) } ?? .null, as: info.returnType, args: [:], schema: info.schema, at: place)
        }
    }
}

extension GraphQLData {
    /// Applies `mutation` with the arguments `args`: the fields are those of its one input-object argument, or its
    /// arguments themselves. Returns the entry added, changed or removed; nil when an update or delete finds none.
    mutating func apply(_ mutation: GraphQLEndpoint.Mutation, args: Map, field: String) throws -> [String: JSONValue]? {
        let arguments = (args.dictionary ?? [:]).compactMap { name, value in GraphQLData.json(of: value).map { (name, $0) } }
        var fields = Dictionary(arguments, uniquingKeysWith: { first, _ in first })
        if arguments.count == 1, case .object(let input) = arguments[0].1 { fields = input }
        let type = mutation.type
        func index(of id: JSONValue?) throws -> Int? {
            guard let id else {
                throw GraphQLError(message: "\(field) changes a \(type) by its id, but its arguments have no 'id'.")
            }
            return entries[type, default: []].firstIndex { $0["id"].map { GraphQLData.equal($0, id) } ?? false }
        }
        switch mutation.effect {
        case .insert:
            if fields["id"] == nil {
                inserted[type, default: 0] += 1
                fields["id"] = .string("\(type.lowercased())-\(inserted[type]!)")
            }
            entries[type, default: []].append(fields)
            return fields
        case .update:
            guard let found = try index(of: fields["id"]) else { return nil }
            entries[type]![found].merge(fields) { _, new in new }
            return entries[type]![found]
        case .delete:
            guard let found = try index(of: fields["id"]) else { return nil }
            return entries[type]!.remove(at: found)
        }
    }

    /// The scenario's mutations checked against the schema: each names a field of the mutation type and an object type.
    static func check(_ mutations: [String: GraphQLEndpoint.Mutation], for schema: GraphQLSchema) -> [GraphQLEndpoint.Problem] {
        guard !mutations.isEmpty else { return [] }
        guard let root = schema.mutationType else {
            return [GraphQLEndpoint.Problem(message: "The schema has no mutation type, so no mutation can change the data; remove 'mutations' or add 'type Mutation' to the schema.", part: .mutations)]
        }
        let fields = ((try? root.fields()).map { Array($0.keys) } ?? []).sorted()
        let objects = schema.typeMap.values.compactMap { $0 as? GraphQLObjectType }.map(\.name).filter { !$0.hasPrefix("__") }.sorted()
        var problems: [GraphQLEndpoint.Problem] = []
        for (name, mutation) in mutations.sorted(by: { $0.key < $1.key }) {
            if !fields.contains(name) {
                problems.append(.init(message: "mutations.\(name) names a field \(root.name) does not have.\(Suggestion.didYouMean(name, among: fields))", part: .mutations))
            }
            if !objects.contains(mutation.type) {
                problems.append(.init(message: "mutations.\(name) changes '\(mutation.type)', which the schema has no object type of.\(Suggestion.didYouMean(mutation.type, among: objects))", part: .mutations))
            }
        }
        return problems
    }
}
