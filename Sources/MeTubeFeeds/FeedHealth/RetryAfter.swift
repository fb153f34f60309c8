import Foundation
import MeTubeCore

/// Reads a `Retry-After` header from a hostile peer: delay-seconds or an HTTP date, bounded to
/// 0…``limit``.
public enum RetryAfter {
    /// The longest wait a feed server may ask for; a longer one (or a date further away) is cut
    /// to it, so a hostile answer never silences a channel for more than a day.
    public static let limit = Duration.seconds(24 * 3600)

    /// The wait `header` asks for at `now`: whole or fractional seconds, or an HTTP date
    /// (IMF-fixdate, RFC 850 or asctime), clamped to 0…``limit``; nil for a missing, overlong
    /// or unreadable value.
    public static func parse(_ header: String?, now: Date) -> Duration? {
        guard let header, header.utf8.count <= 64 else { return nil }
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) {
            guard seconds.isFinite else { return nil }
            return clamped(seconds: seconds)
        }
        guard let date = httpDate(text) else { return nil }
        return clamped(seconds: date.timeIntervalSince(now))
    }

    private static func clamped(seconds: Double) -> Duration {
        let limitSeconds = Double(limit.components.seconds)
        return .milliseconds(Int64((min(max(seconds, 0), limitSeconds) * 1000).rounded(.up)))
    }

    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    private static func httpDate(_ text: String) -> Date? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
