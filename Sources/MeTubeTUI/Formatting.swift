import Foundation
import MeTubeCore

/// How the TUI writes dates, durations and counts.
enum Formatting {
    /// A compact age for a feed row, at most four columns: `now`, `5m`, `3h`, `2d`, `3w`, `4mo`, `2y`.
    static func age(of date: Date, now: Date) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        let minutes = Int(seconds / 60)
        if minutes < 1 { return "now" }
        if minutes < 60 { return "\(minutes)m" }
        let hours = minutes / 60
        if hours < 24 { return "\(hours)h" }
        let days = hours / 24
        if days < 14 { return "\(days)d" }
        if days < 60 { return "\(days / 7)w" }
        if days < 365 { return "\(days / 30)mo" }
        return "\(days / 365)y"
    }

    /// How long ago `date` was, in words: `just now`, `2 min ago`, `3 h ago`, `4 d ago`.
    static func ago(_ date: Date, now: Date) -> String {
        let minutes = Int(max(0, now.timeIntervalSince(date)) / 60)
        if minutes < 1 { return "just now" }
        if minutes < 60 { return "\(minutes) min ago" }
        if minutes < 24 * 60 { return "\(minutes / 60) h ago" }
        return "\(minutes / (24 * 60)) d ago"
    }

    /// How long until `start`, at most eight columns: `in 45 m`, `in 2 h`, `in 3 d`; `due` once it
    /// has passed (a premiere that has not been seen to start), `soon` when it is not known.
    static func countdown(to start: Date?, now: Date) -> String {
        guard let start else { return "soon" }
        let minutes = Int((start.timeIntervalSince(now) / 60).rounded(.up))
        if minutes <= 0 { return "due" }
        if minutes < 60 { return "in \(minutes) m" }
        if minutes < 48 * 60 { return "in \(minutes / 60) h" }
        return "in \(min(minutes / (24 * 60), 999)) d"
    }

    /// When `start` is, in words, for a message: `today at 14:02`, `on 2026-11-28 at 20:00`, or
    /// `at a time not announced yet`.
    static func startText(_ start: Date?, now: Date, timeZone: TimeZone) -> String {
        guard let start else { return "at a time not announced yet" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let clock = Self.clock(start, timeZone: timeZone)
        if calendar.isDate(start, inSameDayAs: now) { return "today at \(clock)" }
        let parts = calendar.dateComponents([.year, .month, .day], from: start)
        return "on \(parts.year ?? 0)-\(twoDigits(parts.month ?? 0))-\(twoDigits(parts.day ?? 0)) at \(clock)"
    }

    /// A video's length: `12:34` or `1:02:03`; empty when unknown.
    static func duration(_ seconds: Int?) -> String {
        guard let seconds, seconds > 0 else { return "" }
        return DurationText.format(seconds)
    }

    /// A count with thousands separators: `50,000`.
    static func count(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A count and a noun in English: `1 match`, `2 matches`, `1,200 channels`.
    static func count(_ value: Int, _ noun: String) -> String {
        let plural = value == 1 ? noun : (noun.hasSuffix("ch") ? noun + "es" : noun + "s")
        return "\(count(value)) \(plural)"
    }

    /// The clock time of `date` in `timeZone`: `14:02`.
    static func clock(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return "\(twoDigits(parts.hour ?? 0)):\(twoDigits(parts.minute ?? 0))"
    }

    /// `text` cut to `width` columns by display width, with `…` (or `~` in ASCII) where it was cut.
    static func truncated(_ text: String, width: Int, unicode: Bool) -> String {
        guard width > 0 else { return "" }
        guard TextWidth.of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = TextWidth.of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + (unicode ? "…" : "~")
    }

    /// The end of `text` that fits in `width` columns, with `…` (or `~` in ASCII) where its start
    /// was cut: a prompt shows where typing goes on.
    static func tail(_ text: String, width: Int, unicode: Bool) -> String {
        guard width > 0 else { return "" }
        guard TextWidth.of(text) > width else { return text }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let columns = TextWidth.of(character)
            if used + columns > width - 1 { break }
            kept.append(character)
            used += columns
        }
        return (unicode ? "…" : "~") + String(kept.reversed())
    }

    /// `text` made safe for an ASCII terminal: every other character becomes `?`, wide ones `??`.
    static func ascii(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var result = ""
        for character in text {
            if character.isASCII { result.append(character) } else { result += String(repeating: "?", count: TextWidth.of(character)) }
        }
        return result
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
