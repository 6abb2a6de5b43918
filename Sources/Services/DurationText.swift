/// Durations as scenario files and clients write them: a number and a unit, repeated (`250ms`, `2s`, `1.5s`,
/// `15m`, `1h30m`). At most four parts, each number at most six digits before and after its point: the grammar
/// the JSON Schema and the OpenAPI document state (`^([0-9]{1,6}(\.[0-9]{1,6})?(ms|s|m|h)){1,4}$`), which also keeps
/// every duration (at most about 456 years) far from overflowing 64-bit milliseconds.
public enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    /// The pattern, for documents that state it.
    public static let pattern = #"^([0-9]{1,6}(\.[0-9]{1,6})?(ms|s|m|h)){1,4}$"#

    /// Parses `text`, or returns nil when it is not a duration.
    public static func parse(_ text: String) -> Duration? {
        if let whole = wholeMillisecondsOrSeconds(text) { return whole }
        var rest = Substring(text)
        var total = 0.0
        var parts = 0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            parts += 1
            let whole = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(whole.count)
            var fraction = Substring("")
            if rest.first == "." {
                fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
                guard !fraction.isEmpty else { return nil }
                rest = rest.dropFirst(1 + fraction.count)
            }
            guard parts <= 4, (1...6).contains(whole.count), fraction.count <= 6,
                  let value = Double(fraction.isEmpty ? whole : whole + "." + fraction) else { return nil }
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            total += value * unit.seconds
        }
        return .milliseconds(Int64((total * 1000).rounded()))
    }

    /// The commonest durations, `250ms` and `2s`, read byte by byte: a big stream fixture has one per event, and the
    /// general reading's Character tests cost a tenth of its load. Nil for any other text, which that reading takes.
    private static func wholeMillisecondsOrSeconds(_ text: String) -> Duration? {
        let bytes = text.utf8
        let unitStart = bytes.firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? bytes.endIndex
        let digits = bytes[..<unitStart], unit = bytes[unitStart...]
        guard (1...6).contains(digits.count) else { return nil }
        let value = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        if unit.elementsEqual("ms".utf8) { return .milliseconds(value) }
        if unit.elementsEqual("s".utf8) { return .seconds(value) }
        return nil
    }

    /// `duration` as ``parse(_:)`` reads it, to the millisecond: `10s`, `250ms`, `1h30m`, `1m0.5s` (`0s` for zero).
    public static func format(_ duration: Duration) -> String {
        var milliseconds = Int64((duration.seconds * 1000).rounded())
        guard milliseconds > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("h", Int64(3_600_000)), ("m", 60_000)] where milliseconds >= size {
            text += "\(milliseconds / size)\(unit)"
            milliseconds %= size
        }
        if milliseconds >= 1000 {
            let fraction = milliseconds % 1000
            var digits = String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
            while digits.last == "0" { digits.removeLast() }
            text += "\(milliseconds / 1000)" + (digits.isEmpty ? "" : "." + digits) + "s"
        } else if milliseconds > 0 {
            text += "\(milliseconds)ms"
        }
        return text
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
