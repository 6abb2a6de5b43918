import Fakes
import Foundation
import OpenAPIKit
import Services

/// A JSON value that fits a schema, for a response the document gives no example of: the schema's own examples
/// where it has them (at every level), else values drawn from a seeded generator, so the same document and seed
/// give the same bodies.
///
/// The draws come from Fakes' ``Fakes/SeededRandom`` — the generator a scenario's `random: {seed:}` drives — so
/// imports and sessions share one algorithm. Each body gets its own generator, seeded from the import's seed and
/// the route's name: editing one operation leaves the other operations' bodies as they were.
struct SchemaExampleGenerator {
    /// Objects and arrays nested deeper than this are written empty: a recursive schema (a tree of nodes) ends.
    static let maxDepth = 4
    /// References and combinations followed without nesting before the walk gives up (`A: {allOf: [A]}`).
    static let maxHops = 16
    /// The instant generated `date-time` values count from.
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    let components: OpenAPI.Components
    private let random: SeededRandom
    /// Whether a value was drawn, so the scenario records its seed; a body made of examples needs none.
    private(set) var drewRandom = false
    /// The `pattern`s a generated string could not follow, each once, in the order met.
    private(set) var patternsNotFollowed: [String] = []

    /// A generator for one body, seeded from `seed` and `salt` (the route's name).
    init(components: OpenAPI.Components, seed: UInt64, salt: String) {
        self.components = components
        // FNV-1a: a hash that is the same in every process, which Swift's Hasher (randomly seeded) is not.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in salt.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        random = SeededRandom(seed: seed ^ hash)
    }

    /// A value for `schema`.
    mutating func value(for schema: JSONSchema) -> JSONValue {
        value(for: schema, name: nil, depth: 0, hops: 0)
    }

    private mutating func value(for schema: JSONSchema, name: String?, depth: Int, hops: Int) -> JSONValue {
        if let example = schema.examples.first, let value = OpenAPITranslation.jsonValue(example) { return value }
        if let allowed = schema.allowedValues, !allowed.isEmpty {
            let values = allowed.compactMap(OpenAPITranslation.jsonValue)
            if let choice = draw(values) { return choice }
        }
        switch schema.value {
        case .null: return .null
        case .boolean: return .bool(draw(in: 0...1) == 1)
        case .integer(_, let context): return .int(integer(context))
        case .number(_, let context): return .double(number(context))
        case .string(let core, let context): return .string(string(format: core.formatString, context: context, name: name))
        case .object(_, let context):
            guard depth < Self.maxDepth else { return .object([:]) }
            var members: [String: JSONValue] = [:]
            // Every property, required or not: a mock's body shows the whole shape. Write-only ones (a password)
            // never appear in a response.
            for (key, property) in context.properties where !isWriteOnly(property) {
                members[key] = value(for: property, name: key, depth: depth + 1, hops: 0)
            }
            if members.isEmpty, case .b(let additional)? = context.additionalProperties {
                members["key"] = value(for: additional, name: "key", depth: depth + 1, hops: 0)
            }
            return .object(members)
        case .array(_, let context):
            guard depth < Self.maxDepth else { return .array([]) }
            let upper = context.maxItems ?? Int.max
            let low = min(max(1, context.minItems), upper)
            let high = max(low, min(3, upper))
            let count = draw(in: low...high)
            guard let items = context.items else { return .array((0..<count).map { .string("item-\($0 + 1)") }) }
            return .array((0..<count).map { _ in value(for: items, name: name, depth: depth + 1, hops: 0) })
        case .all(let parts, _):
            guard hops < Self.maxHops else { return .object([:]) }
            // allOf: the parts' objects merged (later parts win a shared key); a part that is not an object wins.
            var merged: [String: JSONValue] = [:]
            for part in parts {
                switch value(for: part, name: name, depth: depth, hops: hops + 1) {
                case .object(let members): merged.merge(members) { _, later in later }
                case let other: return other
                }
            }
            return .object(merged)
        case .one(let choices, _), .any(let choices, _):
            // The first that is not null: `type: [x, null]` and `nullable` describe an x.
            guard hops < Self.maxHops, let first = choices.first(where: { !$0.isNull }) ?? choices.first else { return .null }
            return value(for: first, name: name, depth: depth, hops: hops + 1)
        case .reference:
            guard hops < Self.maxHops, let target = try? components.lookupOnce(schema) else { return .object([:]) }
            return value(for: target, name: name, depth: depth, hops: hops + 1)
        case .not, .fragment:
            return .object([:])
        }
    }

    private func isWriteOnly(_ schema: JSONSchema) -> Bool {
        schema.writeOnly || ((try? components.lookupOnce(schema))?.writeOnly ?? false)
    }

    // MARK: Scalars

    private mutating func integer(_ context: JSONSchema.IntegerContext) -> Int {
        // Saturating: a bound at Int.max or Int.min must not trap.
        func add(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? (b > 0 ? .max : .min) : sum
        }
        let maximum = context.maximum.map { $0.exclusive ? add($0.value, -1) : $0.value }
        let lower = context.minimum.map { $0.exclusive ? add($0.value, 1) : $0.value } ?? maximum.map { add($0, -100) } ?? 1
        let upper = maximum ?? add(lower, 999)
        guard lower <= upper else { return lower }
        let drawn = draw(in: lower...upper)
        guard let step = context.multipleOf, step > 0 else { return drawn }
        let rounded = drawn / step * step
        return rounded >= lower ? rounded : rounded + step
    }

    private mutating func number(_ context: JSONSchema.NumericContext) -> Double {
        let low = context.minimum?.value ?? context.maximum.map { $0.value - 100 } ?? 0
        let high = max(low, context.maximum?.value ?? low + 1000)
        drewRandom = true
        let drawn = low + (high - low) * Double(random.next() >> 11) / Double(1 << 53)
        // Two decimals, kept inside the bounds: a price reads as one, and the same draw writes the same text.
        return min(high, max(low, (drawn * 100).rounded(.down) / 100))
    }

    private mutating func string(format: String?, context: JSONSchema.StringContext, name: String?) -> String {
        let number = draw(in: 1...999)
        let offset = TimeInterval(draw(in: 0...(365 * 86_400 - 1)))
        let instant = InstantText.format(Self.epoch.addingTimeInterval(offset))
        var text: String
        switch format?.lowercased() {
        case "date-time": return instant
        case "date": return String(instant.prefix(10))
        case "time": return String(instant.dropFirst(11))
        case "uuid":
            drewRandom = true
            return random.uuid().uuidString.lowercased()
        case "email", "idn-email": return "user\(number)@example.com"
        case "uri", "url", "iri": return "https://example.com/\(name ?? "resource")/\(number)"
        case "uri-reference", "iri-reference": return "/\(name ?? "resource")/\(number)"
        case "hostname", "idn-hostname": return "host\(number).example.com"
        case "ipv4": return "192.0.2.\(number % 255)"
        case "ipv6": return "2001:db8::\(String(number, radix: 16))"
        case "byte": return Data("\(name ?? "bytes")-\(number)".utf8).base64EncodedString()
        default: text = "\(name ?? "text")-\(number)"
        }
        let fits = { (text: String) in text.count >= context.minLength && text.count <= context.maxLength ?? .max }
        if let pattern = context.pattern {
            // A few draws: a pattern's repeats may give text outside the lengths the schema also asks for. A pattern
            // that gives no text gives none on any draw, so it is not tried again.
            for _ in 0..<8 {
                guard let drawn = PatternText.text(matching: pattern, draw: { draw(in: $0) }) else { break }
                if fits(drawn) { return drawn }
            }
            if !patternsNotFollowed.contains(pattern) { patternsNotFollowed.append(pattern) }
        }
        if text.count < context.minLength { text += String(repeating: "x", count: context.minLength - text.count) }
        if let maxLength = context.maxLength, text.count > maxLength { text = String(text.prefix(maxLength)) }
        return text
    }

    // MARK: Draws

    private mutating func draw(in range: ClosedRange<Int>) -> Int {
        drewRandom = true
        return random.int(in: range)
    }

    private mutating func draw<T>(_ values: [T]) -> T? {
        guard !values.isEmpty else { return nil }
        return values[draw(in: 0...(values.count - 1))]
    }
}
