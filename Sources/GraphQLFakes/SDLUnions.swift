import GraphQL

/// An SDL document's unions, taken out before GraphQLSwift builds the rest: it builds a union with a closure that
/// holds every type of the schema and that nothing outside it can change, so a schema with a union could never be
/// freed (each catalog reload leaked it whole). The unions are written as scalars of their names instead, on the
/// same lines, and ``ExecutableSchema`` makes them from what is kept here.
struct SDLUnions {
    /// A union as the document declares it (with its `extend union` members).
    struct Union {
        var name: String
        var description: String?
        var members: [String]
        /// Where it is declared, 1-based.
        var line: Int
        var column: Int
    }

    /// The unions, in the order declared.
    private(set) var unions: [Union] = []
    /// The document with each union written as `scalar NAME`, every line where it was.
    private(set) var rest: String

    /// - Throws: GraphQLSwift's syntax error, with its place.
    init(sdl: String) throws {
        let document = try parse(source: Source(body: sdl))
        var bytes = Array(sdl.utf8)
        var replaced: [(range: Range<Int>, with: String)] = []
        for definition in document.definitions {
            if let union = definition as? UnionTypeDefinition, let loc = union.loc {
                let (line, column) = Self.place(of: loc.start, in: bytes)
                unions.append(Union(name: union.name.value, description: union.description?.value,
                                    members: union.types.map(\.name.value), line: line, column: column))
                replaced.append((loc.start..<Self.end(of: loc, union.types), "scalar \(union.name.value)"))
            } else if let extended = definition as? UnionExtensionDefinition, let loc = extended.loc {
                if let index = unions.firstIndex(where: { $0.name == extended.definition.name.value }) {
                    unions[index].members += extended.definition.types.map(\.name.value)
                }
                replaced.append((loc.start..<Self.end(of: loc, extended.definition.types), ""))
            }
        }
        // From the end, so earlier offsets still hold; each replacement keeps the lines it covered.
        for (range, text) in replaced.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            let newlines = bytes[range].count { $0 == UInt8(ascii: "\n") }
            bytes.replaceSubrange(range, with: Array(text.utf8) + Array(repeating: UInt8(ascii: "\n"), count: newlines))
        }
        rest = String(decoding: bytes, as: UTF8.self)
    }

    /// Where a union's text ends: past its last member's name (GraphQLSwift's locations end where their last token
    /// starts).
    private static func end(of loc: Location, _ members: [NamedType]) -> Int {
        guard let last = members.last, let start = last.name.loc?.start ?? last.loc?.start else { return loc.end }
        return max(loc.end, start + last.name.value.utf8.count)
    }

    /// The 1-based line and column of UTF-8 offset `offset`.
    private static func place(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }
}
