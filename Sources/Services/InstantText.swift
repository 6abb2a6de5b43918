public import Foundation

/// Instants as scenario files and clients write them: ISO 8601 with a time zone (`2026-11-01T09:00:00Z`,
/// `2026-11-01T10:00:00.5+01:00`), checked strictly. Foundation's own parser is lenient: it reads `12:99` as
/// `13:39` (found by fuzzing the API), and it refuses valid instants such as year 0287 at -21:00, so every field is
/// checked here and the instant is computed from them (proleptic Gregorian, as RFC 3339 is).
public enum InstantText {
    /// Parses `text`, or returns nil when it is not a valid instant.
    public static func parse(_ text: String) -> Date? {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))/),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6),
              (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var offset = 0
        if let sign = match.8.first, sign != "Z", let hours = match.9.flatMap({ Int($0) }), let minutes = match.10.flatMap({ Int($0) }) {
            guard (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
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
