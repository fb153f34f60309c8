import Foundation

/// Whether a video can be watched now, as its sources last said.
///
/// Lists that promise something to watch (`unwatched` and every view but `all` and `upcoming`)
/// leave out what is not watchable yet or any more (``hidesFromLists``).
public enum Availability: String, Codable, Sendable, CaseIterable {
    /// Watchable: an upload, a replay, or a premiere that has started.
    case available
    /// A premiere or scheduled stream, announced but not started (see ``Video/scheduledStart``).
    case upcoming
    /// A stream in progress.
    case live
    /// Watchable by the channel's members only.
    case membersOnly = "members-only"
    /// Removed: deleted, or no longer answered by any source.
    case gone
    /// Made private by its channel.
    case privateVideo = "private"

    /// Whether the video is gone for good (removed or private).
    public var isGone: Bool { self == .gone || self == .privateVideo }

    /// Whether lists that promise something to watch now leave the video out.
    public var hidesFromLists: Bool { self == .upcoming || isGone }

    /// Whether a player can open the video now.
    public var isPlayable: Bool { !hidesFromLists }

    /// Reads `text` as written on the wire; an unknown word (a newer peer's state) counts as
    /// ``available``, so no video is hidden for a word this version does not know.
    public init(wire text: String?) {
        self = text.flatMap(Availability.init(rawValue:)) ?? .available
    }

    /// The words that explain a gone video in the `all` view.
    public var reason: String? {
        switch self {
        case .gone: "removed"
        case .privateVideo: "private"
        case .available, .upcoming, .live, .membersOnly: nil
        }
    }
}

/// The bounds a scheduled start must lie within to be believed.
public enum ScheduledStart {
    /// How far back a scheduled start may lie and still be a start not yet taken (a stream that
    /// is late): older ones are wrong, and the video is treated as having no known start.
    public static let latePast: TimeInterval = 30 * 86_400
    /// How far ahead a start may be announced (YouTube schedules at most about a year ahead).
    public static let farthestAhead: TimeInterval = 2 * 365 * 86_400

    /// `date` when it is a believable scheduled start at `now`, else `nil` (a start in 1970 or in
    /// 9999 is a source's error, not a reason to hide a video for decades).
    public static func plausible(_ date: Date?, now: Date) -> Date? {
        guard let date, date.timeIntervalSince(now) >= -latePast, date.timeIntervalSince(now) <= farthestAhead else { return nil }
        return date
    }

    /// Whether an upcoming video whose start is `start` (when known) should be treated as
    /// available at `now`: its start lies past ``latePast`` (a premiere that began long ago and no
    /// source said so is watchable, not upcoming for ever).
    public static func isStale(_ start: Date?, published: Date, now: Date) -> Bool {
        now.timeIntervalSince(start ?? published) > latePast
    }
}
