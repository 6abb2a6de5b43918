import Foundation
import GraphQL
import OrderedCollections
import Services

/// Data for every object type of a schema, made from the types alone: two entries each, every field given a value
/// of its type, so any query gets every field it selects. Values come from the type's and field's names and the
/// entry's number, not from random numbers, so the same schema gives the same bytes.
struct GraphQLDataGenerator {
    let schema: GraphQLSchema
    static let entriesPerType = 2

    struct Generated {
        /// The data file's bytes, keys sorted, pretty-printed for editing.
        var json: Data
        /// The entries made, by object type.
        var entries: [String: [[String: JSONValue]]]
        /// A value for each subscription field's event.
        var subscriptionEvents: [String: JSONValue]
        /// Fields of custom scalar types (`Type.field`), which get a string that may not be what the scalar needs.
        var unanswerable: [String]
    }

    func generate() -> Generated {
        let roots = Set([schema.queryType, schema.mutationType, schema.subscriptionType].compactMap { $0?.name })
        let objects = schema.typeMap.values.compactMap { $0 as? GraphQLObjectType }
            .filter { !$0.name.hasPrefix("__") && !roots.contains($0.name) }.sorted { $0.name < $1.name }
        var entries: [String: [[String: JSONValue]]] = [:]
        var unanswerable: [String] = []
        for object in objects {
            entries[object.name] = (1...Self.entriesPerType).map { index in
                var entry: [String: JSONValue] = [:]
                for (name, field) in (try? object.fields()) ?? [:] {
                    entry[name] = value(of: field.type, field: name, type: object.name, index: index, unanswerable: &unanswerable)
                }
                return entry
            }
        }
        var data: [String: JSONValue] = entries.mapValues { .array($0.map(JSONValue.object)) }
        // A root field that is not an object type's reads nothing from the entries: it gets a value of its own.
        if let query = schema.queryType, let fields = try? query.fields() {
            var values: [String: JSONValue] = [:]
            for (name, field) in fields where !(getNamedType(type: field.type) is any GraphQLCompositeType) {
                values[name] = value(of: field.type, field: name, type: query.name, index: 1, unanswerable: &unanswerable)
            }
            if !values.isEmpty { data[query.name] = .object(values) }
        }
        var events: [String: JSONValue] = [:]
        if let subscription = schema.subscriptionType, let fields = try? subscription.fields() {
            for (name, field) in fields {
                events[name] = value(of: field.type, field: name, type: subscription.name, index: 1, unanswerable: &unanswerable, inline: true)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(JSONValue.object(data))) ?? Data("{}".utf8)
        return Generated(json: json + Data("\n".utf8), entries: entries, subscriptionEvents: events, unanswerable: unanswerable.sorted())
    }

    /// A value of `type` for field `field` of entry `index` of `type`: an object type's field refers to an entry of
    /// it by id (an event's is written out `inline`, as a subscription's value is the field's own).
    private func value(of type: any GraphQLType, field: String, type owner: String, index: Int,
                       unanswerable: inout [String], inline: Bool = false) -> JSONValue {
        if let nonNull = type as? GraphQLNonNull { return value(of: nonNull.ofType, field: field, type: owner, index: index, unanswerable: &unanswerable, inline: inline) }
        if let list = type as? GraphQLList {
            return .array((1...Self.entriesPerType).map { value(of: list.ofType, field: field, type: owner, index: $0, unanswerable: &unanswerable, inline: inline) })
        }
        switch type {
        case let object as GraphQLObjectType:
            guard inline else { return .string(Self.id(object.name, index)) }
            var fields: [String: JSONValue] = [:]
            for (name, inner) in (try? object.fields()) ?? [:] {
                fields[name] = value(of: inner.type, field: name, type: object.name, index: index, unanswerable: &unanswerable)
            }
            return .object(fields)
        case let abstract as any GraphQLAbstractType:
            // An interface's or union's value: an entry of the first type it may be.
            guard let first = schema.getPossibleTypes(abstractType: abstract).sorted(by: { $0.name < $1.name }).first else { return .null }
            return .string(Self.id(first.name, index))
        case let enumeration as GraphQLEnumType:
            let values = enumeration.values.map(\.name)
            return values.isEmpty ? .null : .string(values[(index - 1) % values.count])
        case let scalar as GraphQLScalarType:
            switch scalar.name {
            case "ID": return .string(field == "id" ? Self.id(owner, index) : "\(field)-\(index)")
            case "String": return .string("\(owner) \(field) \(index)")
            case "Int": return .int(index)
            case "Float": return .double(Double(index) + 0.5)
            case "Boolean": return .bool(index % 2 == 1)
            default:
                if !unanswerable.contains("\(owner).\(field)") { unanswerable.append("\(owner).\(field)") }
                return .string("\(scalar.name) \(index)")
            }
        default:
            return .null
        }
    }

    /// The id of entry `index` of `type`: `trip-1`.
    static func id(_ type: String, _ index: Int) -> String {
        "\(type.prefix(1).lowercased())\(type.dropFirst())-\(index)"
    }
}
