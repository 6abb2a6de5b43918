/// Durations as scenario files and clients write them: a number and a unit, repeated (`250ms`, `2s`, `1.5s`,
/// `15m`, `1h30m`).
public enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]

    /// Parses `text`, or returns nil when it is not a duration.
    public static func parse(_ text: String) -> Duration? {
        var rest = Substring(text)
        var total = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            total += value * unit.seconds
        }
        return .milliseconds(Int64((total * 1000).rounded()))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
