import Foundation
import MeTubeCore

/// Fast, allocation-free reading and writing of the ISO-8601 timestamps feeds and hubs use.
///
/// Accepts `YYYY-MM-DDTHH:MM:SS`, an optional fraction of any length (YouTube's WebSub pushes
/// carry nine digits), and `Z` or a `±HH:MM` / `±HHMM` offset. Writes whole seconds in UTC with `Z`.
public enum ISO8601Timestamp {
    /// Parses `text`; nil when it is not such a timestamp.
    public static func parse(_ text: some StringProtocol) -> Date? {
        var utf8 = Array(text.utf8)
        while let last = utf8.last, last == 0x20 || last == 0x0A || last == 0x09 || last == 0x0D { utf8.removeLast() }
        var index = utf8.startIndex
        while index < utf8.endIndex, utf8[index] == 0x20 || utf8[index] == 0x0A || utf8[index] == 0x09 || utf8[index] == 0x0D { index += 1 }
        var reader = DigitReader(bytes: utf8, index: index)
        guard let year = reader.number(4), reader.expect("-"), let month = reader.number(2), reader.expect("-"),
              let day = reader.number(2), reader.expect("T") || reader.expect("t") || reader.expect(" "),
              let hour = reader.number(2), reader.expect(":"), let minute = reader.number(2), reader.expect(":"),
              let second = reader.number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if reader.expect(".") || reader.expect(",") {
            var scale = 0.1
            var digits = 0
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if reader.expect("Z") || reader.expect("z") {
            offsetSeconds = 0
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.number(2) else { return nil }
            _ = reader.expect(":")
            guard let offsetMinutes = reader.number(2) else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats `date` as `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds, fraction truncated).
    public static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        if (0...9999).contains(year) {
            // The common case, written digit by digit: the hub formats one date per row it answers.
            return String(unsafeUninitializedCapacity: 20) { buffer in
                var position = 0
                func write(_ value: Int, width: Int, then separator: Character) {
                    var remainder = value
                    for offset in stride(from: width - 1, through: 0, by: -1) {
                        buffer[position + offset] = UInt8(ascii: "0") + UInt8(remainder % 10)
                        remainder /= 10
                    }
                    buffer[position + width] = separator.asciiValue ?? 0
                    position += width + 1
                }
                write(year, width: 4, then: "-")
                write(month, width: 2, then: "-")
                write(day, width: 2, then: "T")
                write(secondsOfDay / 3600, width: 2, then: ":")
                write(secondsOfDay / 60 % 60, width: 2, then: ":")
                write(secondsOfDay % 60, width: 2, then: "Z")
                return position
            }
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads fixed-width decimal fields and single punctuation bytes from a byte array.
private struct DigitReader {
    let bytes: [UInt8]
    var index: Int

    var atEnd: Bool { index == bytes.endIndex }

    mutating func digit() -> Int? {
        guard index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 0x30)
    }

    mutating func number(_ width: Int) -> Int? {
        var value = 0
        for _ in 0..<width {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.endIndex, bytes[index] == UInt8(character.value) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if expect("+") { return 1 }
        if expect("-") { return -1 }
        return nil
    }
}
