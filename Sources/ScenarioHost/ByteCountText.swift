/// Sizes as the daemon's flags and messages write them: a whole number and an optional binary unit (`512`,
/// `64KiB`, `16MiB`, `2GiB`; `K`, `M`, `G` and `KB`, `MB`, `GB` read as the same binary units, as `ulimit` and
/// systemd's `MemoryMax=` do).
public enum ByteCountText {
    private static let units: [(suffixes: [String], size: Int)] = [
        (["GiB", "GB", "G"], 1 << 30), (["MiB", "MB", "M"], 1 << 20), (["KiB", "KB", "K"], 1 << 10), (["B", ""], 1),
    ]

    /// Parses `text`, or returns nil when it is not a size or is too large for 64 bits.
    public static func parse(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let suffix = text.dropFirst(digits.count)
        guard !digits.isEmpty, let value = Int(digits),
              let unit = units.first(where: { $0.suffixes.contains { $0.lowercased() == suffix.lowercased() } }) else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: unit.size)
        return overflow ? nil : bytes
    }

    /// `bytes` for a person, in the largest unit it reaches, to one decimal: `512 B`, `64.0 KiB`, `15.3 MiB`.
    public static func format(_ bytes: Int) -> String {
        for unit in units.dropLast() where bytes >= unit.size {
            let tenths = Int((Double(bytes) * 10 / Double(unit.size)).rounded())
            return "\(tenths / 10).\(tenths % 10) \(unit.suffixes[0])"
        }
        return "\(bytes) B"
    }
}
