package import Services
package import Yams

/// YAML nodes for the files scenariod writes (recordings, saved sessions, imports), so a value reads back as the
/// value it was: text stays text, JSON keeps its types.
extension Node {
    /// A string that stays a string when read back (`"123"`, `"true"` and `"null"` are quoted).
    package static func scenarioText(_ string: String) -> Node {
        let plain = Node(string)
        let readsBack = (try? Yams.compose(yaml: string)).flatMap { $0 }
        let needsQuotes = readsBack?.tag.rawValue != Tag.Name.str.rawValue || readsBack?.scalar?.string != string
        return needsQuotes ? Node(string, Tag(.str), .doubleQuoted) : plain
    }

    /// A mapping of strings to strings, keys sorted, each side staying text.
    package static func scenarioTextMapping(_ values: [String: String]) -> Node {
        .mapping(.init(values.keys.sorted().map { (scenarioText($0), scenarioText(values[$0]!)) }))
    }

    /// A JSON value as YAML of the same types; object keys sorted, so the same value writes the same bytes.
    package static func scenarioValue(_ value: JSONValue) -> Node {
        switch value {
        case .null: Node("null", Tag(.null))
        case .bool(let flag): Node(flag ? "true" : "false", Tag(.bool))
        case .int(let number): Node(String(number), Tag(.int))
        case .double(let number): Node(String(number), Tag(.float))
        case .string(let string): scenarioText(string)
        case .array(let items): .sequence(.init(items.map(scenarioValue)))
        case .object(let members): .mapping(.init(members.keys.sorted().map { (scenarioText($0), scenarioValue(members[$0]!)) }))
        }
    }
}
