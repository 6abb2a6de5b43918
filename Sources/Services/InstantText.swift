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
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 instant such as 2026-11-01T09:00:00Z.")
            }
            return date
        }
    }
}
