public import Foundation

/// Instants as scenario files and clients write them: ISO 8601 with a time zone (`2026-11-01T09:00:00Z`,
/// `2026-11-01T10:00:00.5+01:00`), checked strictly. Foundation's own parser is lenient: it reads `12:99` as
/// `13:39` (found by fuzzing the API), and it refuses valid instants such as year 0287 at -21:00, so every field is
/// checked here and the instant is computed from them (proleptic Gregorian, as RFC 3339 is).
public enum InstantText {
    /// Parses `text`, or returns nil when it is not a valid instant.
    public static func parse(_ text: String) -> Date? {
        // Scanned by hand: a Regex literal is compiled again at every use, which made this a third of reading
        // 1,000 scenarios (perf, BENCHMARKS.md).
        var scanner = Scanner(text)
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
              let day = scanner.digits(2), scanner.take("T"), let hour = scanner.digits(2), scanner.take(":"),
              let minute = scanner.digits(2), scanner.take(":"), let second = scanner.digits(2),
              (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var fraction = 0.0
        if scanner.take(".") {
            var scale = 0.1
            var count = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard (1...9).contains(count) else { return nil }
        }
        var offset = 0
        if !scanner.take("Z") {
            let sign = scanner.take("-") ? -1 : scanner.take("+") ? 1 : 0
            guard sign != 0, let hours = scanner.digits(2), scanner.take(":"), let minutes = scanner.digits(2),
                  (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// Writes `date` in UTC as `2026-11-01T09:00:00Z`, with a fraction only where it has one: `.750` for whole
    /// milliseconds, else microseconds (`.000250`), the finest a `Date` holds this century. Foundation's
    /// `.iso8601` drops the fraction, so two `750ms` advances read `:00Z` then `:01Z`.
    public static func format(_ date: Date) -> String {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        // Floor division keeps instants before 1970 right: -0.5 s is 23:59:59.5 of the day before.
        let (wholeSeconds, fraction) = Int(microseconds).floorDivided(by: 1_000_000)
        let (days, secondOfDay) = wholeSeconds.floorDivided(by: 86_400)
        let (year, month, day) = civil(fromDaysSince1970: days)
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(secondOfDay / 3_600, 2)):"
            + "\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
        if fraction != 0 {
            text += fraction % 1_000 == 0 ? ".\(padded(fraction / 1_000, 3))" : ".\(padded(fraction, 6))"
        }
        return text + "Z"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Why `text` is not an instant, in words a person can act on; nil when it is one.
    public static func problem(_ text: String) -> String? {
        guard parse(text) == nil else { return nil }
        var scanner = Scanner(text)
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
              let day = scanner.digits(2) else {
            return "'\(text)' is not an ISO 8601 instant; write a date, a time and a zone, such as 2026-11-01T09:00:00Z"
        }
        guard (1...12).contains(month) else { return "'\(text)' has month \(month); months run from 01 to 12" }
        let days = daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            return "'\(text)' is not a date: \(monthNames[month - 1]) \(year) has \(days) days"
        }
        guard scanner.take("T"), let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2),
              scanner.take(":"), let second = scanner.digits(2) else {
            return "'\(text)' needs a time with seconds after the date, such as 2026-11-01T09:00:00Z"
        }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
            return "'\(text)' is not a time of day: hours run 00–23, minutes and seconds 00–59"
        }
        if scanner.take(".") {
            var count = 0
            while scanner.digit() != nil { count += 1 }
            guard (1...9).contains(count) else { return "'\(text)' has a fraction of a second of \(count) digits; write 1 to 9" }
        }
        if scanner.isAtEnd {
            return "'\(text)' needs a time zone offset or Z, such as \(text)Z or \(text)+01:00"
        }
        return "'\(text)' has a time zone that is not Z or ±HH:MM (hours 00–23), such as 2026-11-01T09:00:00+01:00"
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                      "September", "October", "November", "December"]

    /// Reads ASCII fields off the front of UTF-8 text.
    private struct Scanner {
        private var rest: Substring.UTF8View

        init(_ text: String) { rest = Substring(text).utf8 }

        var isAtEnd: Bool { rest.isEmpty }

        /// Consumes `character` if it comes next.
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard rest.first == UInt8(ascii: character) else { return false }
            rest.removeFirst()
            return true
        }

        /// Consumes one ASCII digit if one comes next.
        mutating func digit() -> Int? {
            guard let byte = rest.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            rest.removeFirst()
            return Int(byte - UInt8(ascii: "0"))
        }

        /// Consumes exactly `count` digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDaysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension JSONDecoder.DateDecodingStrategy {
    /// ISO 8601 read strictly (``InstantText``).
    public static var strictISO8601: Self {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InstantText.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(InstantText.problem(text) ?? text).")
            }
            return date
        }
    }
}

extension JSONEncoder.DateEncodingStrategy {
    /// ISO 8601 with the fraction of a second kept (``InstantText/format(_:)``).
    public static var instantText: Self {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InstantText.format(date))
        }
    }
}

private extension Int {
    /// Quotient rounded down and a remainder that is never negative.
    func floorDivided(by divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
