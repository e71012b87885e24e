import Foundation

/// PostgreSQL's text forms of timestamps, byte strings and floats, for the session settings every connection
/// makes (`TimeZone=UTC`, `DateStyle=ISO`, `bytea_output=hex`).
enum PostgresTextFormat {
    // MARK: timestamptz

    /// `2026-11-22T03:20:33.123456Z`: ISO 8601 in UTC, to the microsecond PostgreSQL keeps.
    static func timestamp(_ date: Date) -> String {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, fraction) = floorDivision(microseconds, 1_000_000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
                + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
                + ".\(padded(fraction, 6))Z"
        }
        // Digits written straight into the string's storage: a recorder writes three timestamps a job, and joining
        // eleven small strings for each shows in a worker's profile.
        return String(unsafeUninitializedCapacity: 27) { bytes in
            func put(_ value: Int64, width: Int, at offset: Int, then separator: Character) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                bytes[offset + width] = separator.asciiValue ?? 0
            }
            put(year, width: 4, at: 0, then: "-")
            put(month, width: 2, at: 5, then: "-")
            put(day, width: 2, at: 8, then: "T")
            put(secondOfDay / 3600, width: 2, at: 11, then: ":")
            put(secondOfDay / 60 % 60, width: 2, at: 14, then: ":")
            put(secondOfDay % 60, width: 2, at: 17, then: ".")
            put(fraction, width: 6, at: 20, then: "Z")
            return 27
        }
    }

    /// Reads the server's output, `2026-11-22 03:20:33.123456+00` (the fraction and the offset's minutes optional);
    /// nil for anything else, `infinity` and BC dates included.
    static func date(fromTimestamp text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(minimumDigits: 4), scanner.skip(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.skip(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2), scanner.skip(UInt8(ascii: " ")),
            let hour = scanner.number(digits: 2), scanner.skip(UInt8(ascii: ":")),
            let minute = scanner.number(digits: 2), scanner.skip(UInt8(ascii: ":")),
            let second = scanner.number(digits: 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var microseconds: Int64 = 0
        if scanner.skip(UInt8(ascii: ".")) {
            guard let (fraction, digits) = scanner.fraction(), digits <= 6 else { return nil }
            microseconds = fraction
            for _ in digits..<6 { microseconds *= 10 }
        }
        guard let sign = scanner.sign(), let offsetHours = scanner.number(digits: 2) else { return nil }
        var offsetSeconds = offsetHours * 3600
        if scanner.skip(UInt8(ascii: ":")) {
            guard let minutes = scanner.number(digits: 2) else { return nil }
            offsetSeconds += minutes * 60
            if scanner.skip(UInt8(ascii: ":")) {
                guard let seconds = scanner.number(digits: 2) else { return nil }
                offsetSeconds += seconds
            }
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - sign * offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1_000_000)
    }

    // MARK: bytea

    /// `\x` and two lowercase hex digits per byte.
    static func bytea(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads `bytea_output = hex`; nil for any other form.
    static func bytes(fromBytea text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    // MARK: float8

    /// The shortest text that reads back as the same `Double`, with PostgreSQL's names for the special values.
    static func float(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return String(value)
    }

    static func double(fromFloat text: String) -> Double? {
        switch text {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: Double(text)
        }
    }

    // MARK: helpers

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``days(fromCivil:_:_:)`` (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads fixed-width decimal fields off the front of ASCII text.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int64? {
        guard let (value, count) = digitRun(limit: digits), count == digits else { return nil }
        return value
    }

    mutating func number(minimumDigits: Int) -> Int64? {
        guard let (value, count) = digitRun(limit: 9), count >= minimumDigits else { return nil }
        return value
    }

    mutating func fraction() -> (value: Int64, digits: Int)? {
        digitRun(limit: 9)
    }

    /// +1 or -1 for a `+` or `-`.
    mutating func sign() -> Int64? {
        if skip(UInt8(ascii: "+")) { return 1 }
        if skip(UInt8(ascii: "-")) { return -1 }
        return nil
    }

    private mutating func digitRun(limit: Int) -> (Int64, Int)? {
        var value: Int64 = 0
        var count = 0
        while count < limit, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
            count += 1
        }
        return count > 0 ? (value, count) : nil
    }
}
