public import Fakes
import Foundation
import Services

/// The JSON Schema of `scenario.yaml`, for editors to validate and complete a daemon's scenario files. It is the
/// same for every daemon but for the Model names and the team's services, so each daemon prints its own (`NAME --print-schema`);
/// `schema/scenario.schema.json` is scenariod's, and a test keeps it equal to what scenariod prints.
public enum ScenarioSchema {
    /// The schema naming `models` as the Models a scenario may pick, with a section for each of `services`, as
    /// pretty-printed JSON with sorted keys.
    public static func json(models: [String], services: [ServiceDefinition] = []) -> String {
        // The resource is the schema of the built-in sections, kept as a file people read and edit; it parses
        // unless the file itself is broken, which the shipped schema's test shows at once.
        guard var schema = (try? JSONSerialization.jsonObject(with: Data(PackageResources.scenario_schema_json))) as? [String: Any],
              var properties = schema["properties"] as? [String: Any], var model = properties["model"] as? [String: Any] else {
            preconditionFailure("Sources/ScenarioFormat/Resources/scenario.schema.json is not a JSON Schema object with properties.model")
        }
        model["enum"] = models.sorted()
        properties["model"] = model
        for service in services { properties[service.name] = section(service) }
        schema["properties"] = properties
        let data = (try? JSONSerialization.data(withJSONObject: schema, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A team service's section: its state to full depth (nested objects, lists, maps, enum values) as its
    /// `Decodable` conformance reads it, each value's default from the initial state, or `live` when the service
    /// has a live implementation.
    private static func section(_ service: ServiceDefinition) -> [String: Any] {
        let initialState = service.encode(service.initialState)
        var state = schema(of: service.shape, initial: initialState)
        // The initial state names every field it encodes, even one after a field the shape reader could not pass.
        if case .object(let initial) = initialState, var properties = state["properties"] as? [String: Any] {
            for (name, value) in initial where value != .null && properties[name] == nil {
                properties[name] = ["type": jsonType(of: value), "default": value.foundationObject]
            }
            state["properties"] = properties
        }
        let merging = "merged over its initial state and, with 'extends', over the parent's section"
        var schema: [String: Any] = ["description": "\(service.description). The fake's state (\(service.stateType)), \(merging)."]
        if service.hasLive {
            schema["description"] = "\(service.description). The fake's state (\(service.stateType)), \(merging); or 'live'."
            schema["oneOf"] = [["const": "live"], state]
        } else {
            schema.merge(state) { first, _ in first }
        }
        return schema
    }

    /// The JSON Schema of a value of `shape`. `initial` is the initial state's value here, when it has one: each
    /// scalar's and list's default. An object with an initial value is merged over it key by key, so it requires
    /// nothing; one without (a list's element, an optional that is nil at first) requires its required keys.
    static func schema(of shape: ValueShape, initial: JSONValue?) -> [String: Any] {
        var schema: [String: Any]
        switch shape {
        case .string(let format):
            schema = ["type": "string"]
            if let format { schema["format"] = format }
        case .integer: schema = ["type": "integer"]
        case .number: schema = ["type": "number"]
        case .boolean: schema = ["type": "boolean"]
        case .oneOf(let values): schema = ["enum": values.map(\.foundationObject)]
        case .list(let element): schema = ["type": "array", "items": Self.schema(of: element, initial: nil)]
        case .map(let element): schema = ["type": "object", "additionalProperties": Self.schema(of: element, initial: nil)]
        case .object(let fields, let complete):
            let members: [String: JSONValue]? = if case .object(let members)? = initial { members } else { nil }
            var properties: [String: Any] = [:]
            for field in fields {
                var property = Self.schema(of: field.shape, initial: members?[field.name])
                if !field.required { property = nullable(property) }
                properties[field.name] = property
            }
            schema = ["type": "object", "properties": properties, "additionalProperties": !complete]
            let required = fields.filter(\.required).map(\.name)
            if members == nil, !required.isEmpty { schema["required"] = required }
        case .unknown: schema = [:]
        }
        if let initial, initial != .null, !shape.isObject { schema["default"] = initial.foundationObject }
        return schema
    }

    /// `schema`, also allowing null (an optional key, which null leaves out).
    private static func nullable(_ schema: [String: Any]) -> [String: Any] {
        var schema = schema
        if let type = schema["type"] as? String {
            schema["type"] = [type, "null"]
        } else if let values = schema["enum"] as? [Any] {
            schema["enum"] = values + [NSNull()]
        }
        return schema
    }

    private static func jsonType(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

private extension ValueShape {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

private extension JSONValue {
    /// The value as JSONSerialization writes it.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let flag): flag
        case .int(let number): number
        case .double(let number): number
        case .string(let text): text
        case .array(let items): items.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }
}
