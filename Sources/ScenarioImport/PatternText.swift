import Foundation

/// Text that a schema's `pattern` matches, drawn from the pattern itself: literals, `.`, classes (`[a-z0-9_-]`,
/// `[^,]`, `\d`, `\w`, `\s` and their negations), groups with `|`, and the quantifiers `? * + {n} {n,} {n,m}`.
/// Anchors are dropped (the text is all the match). Written here because no package in reach generates from a
/// regular expression; a pattern using anything else (look-arounds, back-references, Unicode classes) gives nil,
/// and so does one whose drawn text does not match it after all, so a caller never writes a value its schema refuses.
struct PatternText {
    /// Repeats drawn for an open-ended quantifier beyond its minimum (`*`, `+`, `{n,}`).
    static let openRepeats = 3

    private indirect enum Node {
        case text(Character)
        case choice([Character])
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, min: Int, max: Int)
    }

    private struct Unsupported: Error {}

    private let characters: [Character]
    private var index = 0

    private init(_ pattern: String) {
        characters = Array(pattern)
    }

    /// Text `pattern` matches, drawing each choice with `draw` (a number in the range given); nil when the pattern
    /// uses what this does not draw from, or the text does not match.
    static func text(matching pattern: String, draw: (ClosedRange<Int>) -> Int) -> String? {
        var parser = PatternText(pattern)
        guard let node = try? parser.alternatives(), parser.index == parser.characters.count else { return nil }
        var text = ""
        write(node, into: &text, draw: draw)
        guard let expression = try? NSRegularExpression(pattern: pattern),
              expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil else { return nil }
        return text
    }

    private static func write(_ node: Node, into text: inout String, draw: (ClosedRange<Int>) -> Int) {
        switch node {
        case .text(let character): text.append(character)
        case .choice(let options): text.append(options[draw(0...(options.count - 1))])
        case .sequence(let nodes): for node in nodes { write(node, into: &text, draw: draw) }
        case .alternatives(let nodes): write(nodes[draw(0...(nodes.count - 1))], into: &text, draw: draw)
        case .repeated(let node, let low, let high):
            for _ in 0..<draw(low...high) { write(node, into: &text, draw: draw) }
        }
    }

    // MARK: Parsing

    private var atEnd: Bool { index == characters.count }

    private mutating func next() throws(Unsupported) -> Character {
        guard !atEnd else { throw Unsupported() }
        defer { index += 1 }
        return characters[index]
    }

    private mutating func take(_ character: Character) -> Bool {
        guard !atEnd, characters[index] == character else { return false }
        index += 1
        return true
    }

    private mutating func alternatives() throws(Unsupported) -> Node {
        var options = [try sequence()]
        while take("|") { options.append(try sequence()) }
        return options.count == 1 ? options[0] : .alternatives(options)
    }

    private mutating func sequence() throws(Unsupported) -> Node {
        var nodes: [Node] = []
        while !atEnd, characters[index] != "|", characters[index] != ")" {
            if take("^") || take("$") { continue }
            nodes.append(try quantified(try atom()))
        }
        return .sequence(nodes)
    }

    private mutating func atom() throws(Unsupported) -> Node {
        switch try next() {
        case "(":
            if take("?") { guard take(":") else { throw Unsupported() } }  // look-arounds and named groups are not drawn
            let inner = try alternatives()
            guard take(")") else { throw Unsupported() }
            return inner
        case "[": return .choice(try characterClass())
        case ".": return .choice(Self.printable)
        case "\\": return try escape(inClass: false)
        case "*", "+", "?", "{", ")", "]": throw Unsupported()
        case let character: return .text(character)
        }
    }

    private mutating func quantified(_ node: Node) throws(Unsupported) -> Node {
        var bounds: (Int, Int)?
        if take("*") { bounds = (0, Self.openRepeats) }
        else if take("+") { bounds = (1, 1 + Self.openRepeats) }
        else if take("?") { bounds = (0, 1) }
        else if !atEnd, characters[index] == "{" {
            index += 1
            let low = try number()
            var high = low
            if take(",") { high = !atEnd && characters[index] == "}" ? low + Self.openRepeats : try number() }
            guard take("}"), low <= high else { throw Unsupported() }
            bounds = (low, high)
        }
        guard let (low, high) = bounds else { return node }
        _ = take("?") || take("+")  // lazy and possessive repeat the same text
        return .repeated(node, min: low, max: high)
    }

    private mutating func number() throws(Unsupported) -> Int {
        var digits = ""
        while !atEnd, characters[index].isASCII, characters[index].isNumber { digits.append(characters[index]); index += 1 }
        guard let value = Int(digits), value <= 1_000 else { throw Unsupported() }
        return value
    }

    /// The members of `[…]` (after its `[`), as the characters it allows among printable ASCII and those it names.
    private mutating func characterClass() throws(Unsupported) -> [Character] {
        let negated = take("^")
        var members: [Character] = []
        var first = true
        while true {
            let character = try next()
            if character == "]", !first { break }
            first = false
            var low = character
            if character == "\\" {
                guard case .choice(let named) = try escape(inClass: true) else { throw Unsupported() }
                if named.count > 1 { members += named; continue }
                low = named[0]
            }
            if take("-") {
                if !atEnd, characters[index] == "]" { members += [low, "-"]; continue }
                var high = try next()
                if high == "\\" {
                    guard case .choice(let named) = try escape(inClass: true), named.count == 1 else { throw Unsupported() }
                    high = named[0]
                }
                guard let from = low.unicodeScalars.first?.value, let to = high.unicodeScalars.first?.value, from <= to,
                      to - from < 0x3000 else { throw Unsupported() }
                members += (from...to).compactMap(Unicode.Scalar.init).map(Character.init)
            } else {
                members.append(low)
            }
        }
        let allowed = negated ? Self.printable.filter { !members.contains($0) } : members
        guard !allowed.isEmpty else { throw Unsupported() }
        return allowed
    }

    /// After a `\`: a named class, or the escaped character as a choice of one.
    private mutating func escape(inClass: Bool) throws(Unsupported) -> Node {
        let character = try next()
        let digits = (48...57).compactMap(Unicode.Scalar.init).map(Character.init)
        let word = Self.printable.filter { $0.isLetter || $0.isNumber || $0 == "_" }
        let space: [Character] = [" "]
        switch character {
        case "d": return .choice(digits)
        case "w": return .choice(word)
        case "s": return .choice(space)
        case "D": return .choice(Self.printable.filter { !digits.contains($0) })
        case "W": return .choice(Self.printable.filter { !word.contains($0) })
        case "S": return .choice(Self.printable.filter { $0 != " " })
        case "t": return .choice(["\t"])
        case "n": return .choice(["\n"])
        case _ where character.isLetter || character.isNumber: throw Unsupported()  // \b, \p{…}, \1, …
        default: return .choice([character])
        }
    }

    /// Printable ASCII: what `.` and a negated class draw from.
    private static let printable = (32...126).compactMap(Unicode.Scalar.init).map(Character.init)
}
