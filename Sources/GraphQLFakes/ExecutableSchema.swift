import GraphQL
import OrderedCollections

/// A schema built from SDL, made again with every field read from the scenario's data. Made again rather than
/// changed: GraphQLSwift builds an SDL schema's interfaces with no way to tell which type a value is (`resolveType`
/// is fixed when a type is created), so its object and interface types are created anew, and its unions (which the
/// SDL build never sees: ``SDLUnions``) from their declarations; scalars, enums, input types and directives are the
/// built schema's own.
final class ExecutableSchema {
    private let built: GraphQLSchema
    private let declaredUnions: [SDLUnions.Union]
    private let resolve: GraphQLFieldResolve
    private var objects: [String: GraphQLObjectType] = [:]
    private var interfaces: [String: GraphQLInterfaceType] = [:]
    private var unions: [String: GraphQLUnionType] = [:]

    private init(built: GraphQLSchema, unions: [SDLUnions.Union], resolve: @escaping GraphQLFieldResolve) {
        self.built = built
        self.declaredUnions = unions
        self.resolve = resolve
    }

    /// `built`, with `resolve` answering every field and each abstract value's type read from the value. `built`'s
    /// own object and interface types are let go of (their cycles broken): the schema made shares only its other types.
    static func make(from built: GraphQLSchema, unions: [SDLUnions.Union] = [], resolve: @escaping GraphQLFieldResolve) throws -> GraphQLSchema {
        let maker = ExecutableSchema(built: built, unions: unions, resolve: resolve)
        defer { breakCycles(in: built.typeMap.values.filter { $0 is GraphQLObjectType || $0 is GraphQLInterfaceType }) }
        do {
            return try maker.make()
        } catch {
            // What was made is let go of too.
            breakCycles(in: Array(maker.objects.values) as [any GraphQLNamedType] + Array(maker.interfaces.values))
            throw error
        }
    }

    /// Empties the fields and interfaces of `types`. GraphQLSwift's types hold each other strongly (a field's type,
    /// the closures an SDL build leaves, the field cache), so a schema is never freed on its own: every catalog
    /// reload leaked each GraphQL route's whole schema (some 50 KB) until this was called when it is let go of.
    static func breakCycles(in types: some Sequence<any GraphQLNamedType>) {
        for type in types where !type.name.hasPrefix("__") {
            switch type {
            case let object as GraphQLObjectType:
                object.fields = { [:] }
                object.interfaces = { [] }
            case let interface as GraphQLInterfaceType:
                interface.fields = { [:] }
                interface.interfaces = { [] }
            case let input as GraphQLInputObjectType:
                input.fields = { [:] }
            default:
                continue
            }
        }
    }

    private func make() throws -> GraphQLSchema {
        // A union is a scalar of its name in the built schema (SDLUnions), made from its declaration below.
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
        for union in declaredUnions {
            unions[union.name] = try GraphQLUnionType(
                name: union.name, description: union.description, resolveType: typeOfValue,
                types: union.members.compactMap { objects[$0] })
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
