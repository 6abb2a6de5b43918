/// A failure to decode a state into the test's own type, in words: where (`items[0].due`) and what was wrong,
/// rather than the error's enum case and context printed as Swift values.
extension DecodingError {
    var sentence: String {
        switch self {
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            "\(Self.place(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            "\(Self.place(context.codingPath)) is null, but the type reads a \(type) there."
        case .keyNotFound(let key, let context):
            "\(Self.place(context.codingPath)) has no key '\(key.stringValue)', which the type requires; make it optional if the state may leave it out."
        @unknown default:
            "\(self)"
        }
    }

    /// `items[0].due`, or `the top level`.
    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        return path.reduce("") { text, key in
            if let index = key.intValue { return "\(text)[\(index)]" }
            return text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)"
        }
    }
}
