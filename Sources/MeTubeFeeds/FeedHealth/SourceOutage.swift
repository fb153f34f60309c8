import Foundation
import MeTubeCore

/// A feed source failing as a whole: most channels' feeds failing within a minute.
public struct SourceOutage: Sendable, Equatable {
    /// When the first of the failures that showed it happened.
    public var since: Date
    /// The most common failure among them, e.g. "HTTP 404".
    public var reason: String

    /// An outage since `since` for `reason`.
    public init(since: Date, reason: String) {
        self.since = since
        self.reason = reason
    }

    /// The one line that says so, e.g. `youtube: feeds failing for every channel since 14:02
    /// (HTTP 404)`; the time is local, with the date when it is not `now`'s day.
    public func message(source: String = "youtube", now: Date = Date(), timeZone: TimeZone = .current) -> String {
        "\(source): " + state(now: now, timeZone: timeZone)
    }

    /// The outage without the source's name, for a place that already names the source (the
    /// TUI's status line): `feeds failing for every channel since 14:02 (HTTP 404)`.
    public func state(now: Date = Date(), timeZone: TimeZone = .current) -> String {
        "feeds failing for every channel since \(Self.clockTime(since, now: now, timeZone: timeZone)) (\(DisplayText.line(reason, limit: 80)))"
    }

    /// The line that says the feeds answer again.
    public func endMessage(source: String = "youtube", now: Date = Date(), timeZone: TimeZone = .current) -> String {
        "\(source): feeds answer again (failing since \(Self.clockTime(since, now: now, timeZone: timeZone)), \(reason))"
    }

    /// `date` as a local clock time, with the date when it is not `now`'s day: "14:02",
    /// "2026-11-27 14:02".
    public static func clockTime(_ date: Date, now: Date = Date(), timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = calendar.isDate(date, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
