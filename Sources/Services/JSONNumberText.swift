/// A JSON number's text as the exact decimal it writes, to tell whether the `Double` it parses to is that number:
/// JSON's grammar allows any number of digits, a 64-bit float keeps about 17, and a number silently changed on the
/// way in (`3.9999999999999999` read as 4, `1e-400` as 0) is a value no client sent. Written here because Foundation
/// offers no exact decimal comparison of a number's text with a `Double`.
struct JSONNumberText: Equatable {
    /// The significant digits, no leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The power of ten of the last digit.
    var exponent: Int
    var negative: Bool

    /// The decimal `text` writes (JSON's grammar, or Swift's `Double.description`); nil when its exponent is beyond
    /// any a `Double` reaches, where no float can equal it anyway.
    init?(_ text: some Collection<UInt8>) {
        var digits: [UInt8] = []
        var exponent = 0
        var negative = false
        var fraction = false
        var index = text.startIndex
        if index < text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            index = text.index(after: index)
        }
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                fraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                let written = String(decoding: text[text.index(after: index)...], as: UTF8.self)
                guard written.count <= 7, let power = Int(written.hasPrefix("+") ? String(written.dropFirst()) : written) else { return nil }
                exponent += power
                break
            } else {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if fraction { exponent -= 1 }
            }
            index = text.index(after: index)
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { (exponent, negative) = (0, false) }
        self.digits = digits
        self.exponent = exponent
        self.negative = negative
    }

    /// Whether `value`, parsed from `text`, is exactly the number `text` writes. Short texts without an exponent are
    /// (any decimal of 15 significant digits or fewer survives a float), so only long ones are compared.
    static func isExact(_ value: Double, from text: some Collection<UInt8>, hasExponent: Bool) -> Bool {
        guard hasExponent || text.count > 15 else { return true }
        guard let written = JSONNumberText(text) else { return false }
        return JSONNumberText(value.description.utf8) == written
    }
}
