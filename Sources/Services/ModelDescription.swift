/// What a Model offers its clients, derived from its own declaration: the actions `Action` decodes and their
/// arguments (names, JSON types, whether required), and the key-value keys it documents.
/// `GET /v1/models` serves it; validation and `scenarioctl actions` read it.
public struct ModelDescription: Sendable, Hashable, Codable {
    /// The name scenarios use (`model: TodoList`).
    public var name: String
    /// Every action, in `actionNames` order.
    public var actions: [ActionDescription]
    /// The key-value keys the Model reads and writes, with what each holds.
    public var keys: [KeyDescription]

    /// Describes `model` by decoding each of its `actionNames` with a decoder that records what the `Action`
    /// enum's own `init(from:)` asks for, so the description cannot drift from the declaration.
    /// - Throws: ``ModelDescriptionError`` when a name in `actionNames` is not a case of `Action`.
    public init<M: Model>(of model: M.Type) throws(ModelDescriptionError) {
        name = M.name
        actions = try M.actionNames.map { name throws(ModelDescriptionError) in
            guard let arguments = ActionShapeDecoder.arguments(of: M.Action.self, case: name) else {
                throw ModelDescriptionError("\(M.name).actionNames lists '\(name)', which is not a case of \(M.name).Action; "
                    + "list exactly the cases of Action.")
            }
            return ActionDescription(name: name, arguments: arguments)
        }
        keys = M.keyValueKeys.sorted { $0.key < $1.key }.map { KeyDescription(key: $0.key, holds: $0.value) }
    }

    /// A description with these parts, as a client decodes one from `GET /v1/models`.
    public init(name: String, actions: [ActionDescription], keys: [KeyDescription]) {
        self.name = name
        self.actions = actions
        self.keys = keys
    }
}

/// One action and its arguments.
public struct ActionDescription: Sendable, Hashable, Codable {
    /// The case name, as clients send it (`POST /v1/sessions/ID/actions/NAME`).
    public var name: String
    /// In the order the case declares them.
    public var arguments: [ArgumentDescription]

    /// An action named `name` taking `arguments`.
    public init(name: String, arguments: [ArgumentDescription]) {
        self.name = name
        self.arguments = arguments
    }
}

/// One argument of an action.
public struct ArgumentDescription: Sendable, Hashable, Codable {
    /// The label, as clients send it.
    public var name: String
    /// Its JSON type: `string`, `integer`, `number`, `boolean`, `array` or `object`.
    public var type: String
    /// False for an optional argument, which may be left out.
    public var required: Bool

    /// An argument labelled `name` of JSON type `type`.
    public init(name: String, type: String, required: Bool) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// A key-value key a Model documents.
public struct KeyDescription: Sendable, Hashable, Codable {
    /// The key, as the Model passes it to ``KeyValueService``.
    public var key: String
    /// What its value is, in words.
    public var holds: String

    /// A key and what it holds, as in a Model's ``Model/keyValueKeys``.
    public init(key: String, holds: String) {
        self.key = key
        self.holds = holds
    }
}

/// A Model whose declaration contradicts itself (an action name that is not a case).
public struct ModelDescriptionError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
