import Fakes
import GraphQL
import OrderedCollections
import Services

/// The data a GraphQL endpoint's queries read: each root type's fields (`Query`, `Mutation`) and the entries of every
/// other object type, by type name. A field is read from its parent's value when the parent has it; otherwise a
/// field of an object type reads that type's entries, those whose fields equal the field's arguments.
struct GraphQLData: Sendable {
    /// The fields of `Query`, `Mutation` (or the schema's names for them), as written.
    var roots: [String: [String: JSONValue]] = [:]
    /// The entries of each other object type.
    var entries: [String: [[String: JSONValue]]] = [:]
    /// What the mutation fields the scenario names do to the entries, by field name.
    var mutations: [String: GraphQLEndpoint.Mutation] = [:]
    /// How many entries of each type the mutations have added, for the ids of those given none.
    var inserted: [String: Int] = [:]

    /// The parent of a root field: its type's fields in the data.
    struct Root: Sendable {}

    /// An object's value as the executor passes it down: its type (for an interface or union) and its fields.
    struct Object: Sendable {
        var type: String
        var fields: [String: JSONValue]
    }

    /// The value of field `info.fieldName` of `source` with arguments `args`, for the executor to complete.
    func resolve(_ source: any Sendable, args: Map, info: GraphQLResolveInfo) throws -> (any Sendable)? {
        let fields = source is Root ? roots[info.parentType.name] : (source as? Object)?.fields
        return try value(fields?[info.fieldName], as: info.returnType, args: args, schema: info.schema,
                         at: "\(info.parentType.name).\(info.fieldName)")
    }

    /// `written` (nil when the data does not say) as a value of `type`.
    func value(_ written: JSONValue?, as type: any GraphQLType, args: Map, schema: GraphQLSchema, at place: String) throws -> (any Sendable)? {
        if let nonNull = type as? GraphQLNonNull { return try value(written, as: nonNull.ofType, args: args, schema: schema, at: place) }
        if let list = type as? GraphQLList {
            switch written {
            case .array(let items):
                return try items.map { try value($0, as: list.ofType, args: [:], schema: schema, at: place) } as [(any Sendable)?]
            case nil:
                guard let composite = getNamedType(type: list.ofType) as? any GraphQLCompositeType else { return nil }
                return entries(of: composite, matching: args, schema: schema).map { $0 as (any Sendable)? }
            case .null?:
                return nil
            case let other?:
                throw GraphQLError(message: "The data for \(place) is \(other.typeName), where the schema says a list; write a JSON array.")
            }
        }
        guard let composite = type as? any GraphQLCompositeType else {
            return written.map(Self.map(of:))
        }
        switch written {
        case nil:
            return entries(of: composite, matching: args, schema: schema).first
        case .null?:
            return nil
        case .object(let fields)?:
            if case .string(let name)? = fields["__typename"] { return Object(type: name, fields: fields) }
            guard let object = composite as? GraphQLObjectType else {
                throw GraphQLError(message: "The data for \(place) is a \(composite.name), which is abstract; say which type it is with \"__typename\".")
            }
            return Object(type: object.name, fields: fields)
        case let reference?:
            // A reference to an entry by its id: `"legs": ["l1", "l2"]`.
            let id = JSONValue.string(Self.text(reference))
            guard let found = entries(of: composite, matching: [:], schema: schema).first(where: { $0.fields["id"].map { JSONValue.string(Self.text($0)) } == id }) else {
                throw GraphQLError(message: "The data for \(place) refers to \(composite.name) '\(Self.text(reference))', but no \(composite.name) in the data has that id.")
            }
            return found
        }
    }

    /// The entries of `type` (of each of its types, for an interface or union), those whose fields equal `args`
    /// where the type has a field of the argument's name.
    private func entries(of type: any GraphQLCompositeType, matching args: Map, schema: GraphQLSchema) -> [Object] {
        let types: [GraphQLObjectType] = if let object = type as? GraphQLObjectType {
            [object]
        } else if let abstract = type as? any GraphQLAbstractType {
            schema.getPossibleTypes(abstractType: abstract)
        } else {
            []
        }
        let wanted: [(String, JSONValue)] = (args.dictionary ?? [:]).compactMap { name, value in
            guard case let json? = Self.json(of: value), json != .null else { return nil }
            return (name, json)
        }
        return types.flatMap { object in
            let names = Set((try? object.fields().keys).map(Array.init) ?? [])
            return (entries[object.name] ?? []).filter { entry in
                wanted.allSatisfy { name, value in
                    guard names.contains(name) else { return true }
                    return entry[name].map { Self.equal($0, value) } ?? false
                }
            }.map { Object(type: object.name, fields: $0) }
        }
    }

    /// Whether an entry's field equals an argument; an ID argument is a string that names a number as well.
    static func equal(_ field: JSONValue, _ argument: JSONValue) -> Bool {
        switch (field, argument) {
        case (.int, .string), (.string, .int), (.double, .string), (.string, .double): text(field) == text(argument)
        default: field == argument
        }
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        default: String(decoding: value.jsonData, as: UTF8.self)
        }
    }

    /// A JSON value as GraphQLSwift's `Map`.
    static func map(of value: JSONValue) -> Map {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Number(number))
        case .double(let number): .number(Number(number))
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(map(of:)))
        case .object(let fields): .dictionary(.init(uniqueKeysWithValues: fields.sorted { $0.key < $1.key }.map { ($0.key, map(of: $0.value)) }))
        }
    }

    /// A `Map` as JSON; nil for `undefined`.
    static func json(of map: Map) -> JSONValue? {
        switch map {
        case .undefined: nil
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number):
            number.storageType == .int ? .int(number.intValue) : .double(number.doubleValue)
        case .string(let text): .string(text)
        case .array(let items): .array(items.compactMap(json(of:)))
        case .dictionary(let fields): .object(fields.reduce(into: [:]) { $0[$1.key] = json(of: $1.value) })
        }
    }
}

extension GraphQLData {
    /// `data` read against `schema`: the root types' fields and the other object types' entries, each name checked
    /// against the schema (with the closest name it has), so a misspelt type or field is found at load, not as a
    /// silent null in a test.
    static func parse(_ data: JSONValue, for schema: GraphQLSchema) -> (GraphQLData, [GraphQLEndpoint.Problem]) {
        var parsed = GraphQLData()
        var problems: [GraphQLEndpoint.Problem] = []
        func report(_ message: String) { problems.append(GraphQLEndpoint.Problem(message: message, part: .data)) }
        guard case .object(let types) = data else {
            report("The data must be a JSON object of type names, such as {\"Query\": {…}, \"Trip\": [{…}]}; got \(data.typeName).")
            return (parsed, problems)
        }
        let roots = [schema.queryType, schema.mutationType, schema.subscriptionType].compactMap { $0?.name }
        let objects = schema.typeMap.values.compactMap { $0 as? GraphQLObjectType }.filter { !$0.name.hasPrefix("__") }
        for (name, value) in types.sorted(by: { $0.key < $1.key }) {
            guard let type = objects.first(where: { $0.name == name }) else {
                report("The data names the type '\(name)', which the schema has no object type of.\(Suggestion.didYouMean(name, among: objects.map(\.name).sorted()))")
                continue
            }
            let fields = ((try? type.fields()).map { Array($0.keys) } ?? []) + ["__typename"]
            func check(_ entry: [String: JSONValue], at place: String) {
                for key in entry.keys.sorted() where !fields.contains(key) {
                    report("The data for \(place) has the field '\(key)', which \(name) does not have.\(Suggestion.didYouMean(key, among: fields))")
                }
            }
            if roots.contains(name) {
                guard case .object(let entry) = value else {
                    report("The data for \(name) must be an object of its fields' values, got \(value.typeName).")
                    continue
                }
                check(entry, at: name)
                parsed.roots[name] = entry
                continue
            }
            let list: [JSONValue] = if case .array(let items) = value { items } else { [value] }
            for (index, item) in list.enumerated() {
                guard case .object(let entry) = item else {
                    report("The data for \(name)[\(index)] must be an object of its fields' values, got \(item.typeName).")
                    continue
                }
                check(entry, at: "\(name)[\(index)]")
                parsed.entries[name, default: []].append(entry)
            }
        }
        return (parsed, problems)
    }
}
