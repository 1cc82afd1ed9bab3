#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment in time, in whole milliseconds since 1970-01-01T00:00:00Z, written as
/// ISO 8601 in UTC (`2026-01-01T12:00:00.000Z`) so that text order is time order.
public struct Timestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var millisecondsSinceEpoch: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// The current time of the system clock.
    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(
            millisecondsSinceEpoch: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// The ISO 8601 text in UTC with milliseconds: `2026-01-01T12:00:00.000Z`.
    public var description: String {
        let seconds = millisecondsSinceEpoch.floorDivided(by: 1000)
        let milliseconds = millisecondsSinceEpoch - seconds * 1000
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civilDate(fromDaysSinceEpoch: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(milliseconds, 3))Z"
    }

    /// The same text without milliseconds: `2026-01-01T12:00:00Z`.
    public var secondsDescription: String {
        let text = description
        return String(text.prefix(19)) + "Z"
    }

    /// Parses ISO 8601 dates and times: `2026-01-01`, `2026-01-01T12:00`,
    /// `2026-01-01T12:00:00Z`, `2026-01-01 12:00:00.250+02:00`. A time without an offset is UTC.
    ///
    /// - Returns: `nil` when `text` is not such a date.
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var milliseconds = Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400_000
        if scanner.skip("T") || scanner.skip(" ") {
            guard let time = scanner.timeOfDay() else { return nil }
            milliseconds += time
            guard let offset = scanner.utcOffset() else { return nil }
            milliseconds -= offset
        }
        guard scanner.isAtEnd else { return nil }
        self.init(millisecondsSinceEpoch: milliseconds)
    }

    // Howard Hinnant's civil calendar algorithms (proleptic Gregorian).
    private static func civilDate(fromDaysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = adjustedYear.floorDivided(by: 400)
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
        ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// Reads the fixed-width numbers of an ISO 8601 date.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { position == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard position < bytes.count, bytes[position] == character.asciiValue else { return false }
        position += 1
        return true
    }

    mutating func number(digits: Int) -> Int64? {
        guard position + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[position..<position + digits] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        position += digits
        return value
    }

    /// `HH:MM[:SS[.fff]]` in milliseconds.
    mutating func timeOfDay() -> Int64? {
        guard let hours = number(digits: 2), hours < 24, skip(":"),
            let minutes = number(digits: 2), minutes < 60
        else { return nil }
        var milliseconds = (hours * 60 + minutes) * 60_000
        if skip(":") {
            guard let seconds = number(digits: 2), seconds < 60 else { return nil }
            milliseconds += seconds * 1000
            if skip(".") || skip(",") {
                var scale: Int64 = 100
                var sawDigit = false
                while let digit = number(digits: 1) {
                    milliseconds += digit * scale
                    scale /= 10
                    sawDigit = true
                }
                guard sawDigit else { return nil }
            }
        }
        return milliseconds
    }

    /// `Z`, `±HH:MM`, `±HHMM` or nothing, in milliseconds east of UTC.
    mutating func utcOffset() -> Int64? {
        if isAtEnd || skip("Z") || skip("z") { return 0 }
        let sign: Int64
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2) else { return nil }
        _ = skip(":")
        guard let minutes = number(digits: 2), hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 60 + minutes) * 60_000
    }
}

/// Timestamps code as their ISO 8601 text, `2026-01-01T12:00:00.000Z`.
extension Timestamp: Codable {
    /// Decodes ISO 8601 text (see ``init(iso8601:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let timestamp = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        self = timestamp
    }

    /// Encodes the ISO 8601 text with milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Timestamp {
    /// When the file at `path` was last modified, to the millisecond; nil when it cannot be
    /// read.
    public static func modificationTime(ofFileAt path: String) -> Timestamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return Timestamp(
            millisecondsSinceEpoch: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
