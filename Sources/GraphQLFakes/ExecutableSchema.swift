import GraphQL
import OrderedCollections

/// A schema built from SDL, made again with every field read from the scenario's data. Made again rather than
/// changed: GraphQLSwift builds an SDL schema's interfaces and unions with no way to tell which type a value is
/// (`resolveType` is fixed when a type is created), so its object, interface and union types are created anew;
/// scalars, enums, input types and directives are the built schema's own.
final class ExecutableSchema {
    private let built: GraphQLSchema
    private let resolve: GraphQLFieldResolve
    private var objects: [String: GraphQLObjectType] = [:]
    private var interfaces: [String: GraphQLInterfaceType] = [:]
    private var unions: [String: GraphQLUnionType] = [:]

    private init(built: GraphQLSchema, resolve: @escaping GraphQLFieldResolve) {
        self.built = built
        self.resolve = resolve
    }

    /// `built`, with `resolve` answering every field and each abstract value's type read from the value.
    static func make(from built: GraphQLSchema, resolve: @escaping GraphQLFieldResolve) throws -> GraphQLSchema {
        try ExecutableSchema(built: built, resolve: resolve).make()
    }

    private func make() throws -> GraphQLSchema {
        let named = built.typeMap.values.filter { !$0.name.hasPrefix("__") }.sorted { $0.name < $1.name }
        let typeOfValue: GraphQLTypeResolve = { value, _ in
            guard let object = value as? GraphQLData.Object else { throw GraphQLError(message: "The data has no type for this value.") }
            return object.type
        }
        // Fields and interfaces are read lazily, so types can name each other in any order.
        for case let object as GraphQLObjectType in named {
            let made = try GraphQLObjectType(name: object.name, description: object.description, astNode: object.astNode)
            made.fields = { [unowned self] in try fields(of: object.fields()) }
            made.interfaces = { [unowned self] in try object.interfaces().map { interfaces[$0.name]! } }
            objects[object.name] = made
        }
        for case let interface as GraphQLInterfaceType in named {
            interfaces[interface.name] = try GraphQLInterfaceType(
                name: interface.name, description: interface.description,
                fields: { [unowned self] in try fields(of: interface.fields()) },
                interfaces: { [unowned self] in try interface.interfaces().map { interfaces[$0.name]! } },
                resolveType: typeOfValue)
        }
        for case let union as GraphQLUnionType in named {
            unions[union.name] = try GraphQLUnionType(
                name: union.name, description: union.description, resolveType: typeOfValue,
                types: try union.types().map { objects[$0.name]! })
        }
        let types: [any GraphQLNamedType] = named.map { type in objects[type.name] ?? interfaces[type.name] ?? unions[type.name] ?? type }
        let schema = try GraphQLSchema(
            query: built.queryType.flatMap { objects[$0.name] },
            mutation: built.mutationType.flatMap { objects[$0.name] },
            subscription: built.subscriptionType.flatMap { objects[$0.name] },
            types: types, directives: built.directives)
        // Every lazy list made now and kept as a constant, while this maker lives: the schema outlives it.
        for object in objects.values {
            let (fields, interfaces) = (try object.fields(), try object.interfaces())
            object.fields = { fields }
            object.interfaces = { interfaces }
        }
        for interface in interfaces.values {
            let (fields, interfaces) = (try interface.fields(), try interface.interfaces())
            interface.fields = { fields }
            interface.interfaces = { interfaces }
        }
        return schema
    }

    private func fields(of built: GraphQLFieldMap) throws -> GraphQLFieldMap {
        var fields = GraphQLFieldMap()
        for (name, field) in built {
            fields[name] = GraphQLField(type: try output(field.type), description: field.description,
                                        deprecationReason: field.deprecationReason, args: field.args, resolve: resolve,
                                        astNode: field.astNode)
        }
        return fields
    }

    /// `type` with its named type swapped for the one made here.
    private func output(_ type: any GraphQLType) throws -> any GraphQLOutputType {
        if let nonNull = type as? GraphQLNonNull { return try GraphQLNonNull(output(nonNull.ofType)) }
        if let list = type as? GraphQLList { return GraphQLList(try output(list.ofType)) }
        guard let named = type as? any GraphQLNamedType else { throw GraphQLError(message: "\(type) is not an output type.") }
        let made: any GraphQLType = objects[named.name] ?? interfaces[named.name] ?? unions[named.name] ?? named
        guard let output = made as? any GraphQLOutputType else { throw GraphQLError(message: "\(named.name) is not an output type.") }
        return output
    }
}
