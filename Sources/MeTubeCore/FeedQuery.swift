import Foundation

/// Which marks a feed view shows. Videos whose status is `unknown` are shown under every filter.
public enum FeedFilter: String, Codable, Sendable, CaseIterable {
    case unwatched
    case all
    case watched
    case skipped
    /// Partly watched: a saved playback position, neither watched nor skipped.
    case inProgress = "in-progress"
    /// Premieres and scheduled streams not started yet, and streams in progress, soonest first.
    case upcoming

    /// The next filter in the order the `f` key cycles through.
    public var next: FeedFilter {
        let all = FeedFilter.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Whether a video with `status` passes this filter; `hasProgress` says whether it has a
    /// saved playback position past the start (only ``inProgress`` asks).
    public func admits(_ status: DisplayStatus, hasProgress: Bool = false) -> Bool {
        switch (self, status) {
        case (.all, _), (_, .unknown): true
        case (.unwatched, .unwatched), (.watched, .watched), (.skipped, .skipped), (.upcoming, .unwatched): true
        case (.inProgress, .unwatched): hasProgress
        default: false
        }
    }

    /// Whether `library` holds a playback position past the start for `videoID`.
    public static func hasProgress(_ videoID: String, in library: Library) -> Bool {
        (library.playbackPositions[videoID]?.seconds ?? 0) > 0
    }

    /// Whether this filter shows `video` by its availability at `now`: ``upcoming`` only what is
    /// upcoming (and not long overdue) or live, `all` everything; every other view leaves out what
    /// is upcoming or gone. `isAllView` says whether the filter is `all` (with a query or not: a
    /// query runs within its filter's list).
    public func admits(_ video: Video, now: Date, isAllView: Bool) -> Bool {
        switch self {
        case .upcoming: video.availability == .live || (video.availability == .upcoming && video.isHiddenFromLists(now: now))
        default: isAllView || !video.isHiddenFromLists(now: now)
        }
    }

    /// Orders the rows of the ``upcoming`` view: streams in progress first, then by scheduled
    /// start (or publication when the start is not known), soonest first.
    public static func upcomingOrder(_ lhs: Video, _ rhs: Video) -> Bool {
        let (left, right) = (lhs.availability == .live ? 0 : 1, rhs.availability == .live ? 0 : 1)
        if left != right { return left < right }
        let (leftStart, rightStart) = (lhs.scheduledStart ?? lhs.published, rhs.scheduledStart ?? rhs.published)
        return leftStart != rightStart ? leftStart < rightStart : lhs.id < rhs.id
    }
}

/// One row of a feed: a video with its channel and mark.
public struct FeedRow: Sendable, Equatable {
    /// The video.
    public var video: Video
    /// The uploading channel's display name.
    public var channelName: String
    /// The video's mark, if any.
    public var mark: Mark?
    /// What the row shows as status.
    public var status: DisplayStatus
    /// Where playback stopped, if it was played.
    public var position: PlaybackPosition? = nil
}

/// A selection of the feed: filter, a saved query, one channel, search text, Shorts, and the
/// rules whose `hide` applies to every view but `all`.
public struct FeedQuery: Sendable, Equatable {
    /// Which statuses to show.
    public var filter: FeedFilter
    /// A query in the query language the videos must also satisfy (a saved view's, or
    /// `list --query`'s), when set.
    public var query: VideoQuery?
    /// The rules; videos a `hide` rule decides for are left out unless this is the `all` view
    /// (filter `all`, no query).
    public var rules = FeedRules()
    /// Only this channel's videos, when set.
    public var channelID: String?
    /// Case-insensitive text that the title or channel name must contain, when not empty.
    public var search: String
    /// Whether Shorts are left out.
    public var hideShorts: Bool

    /// Creates a query.
    public init(filter: FeedFilter = .unwatched, channelID: String? = nil, search: String = "", hideShorts: Bool = false) {
        self.filter = filter
        self.channelID = channelID
        self.search = search
        self.hideShorts = hideShorts
    }

    /// How a video without a mark shows: `unknown` until the statuses are known, then `unwatched`.
    public static func status(of mark: Mark?, statusesKnown: Bool) -> DisplayStatus {
        if let mark { return DisplayStatus(mark.status) }
        return statusesKnown ? .unwatched : .unknown
    }

    /// The rows of `library` this query selects, newest first, at most `limit` of them.
    public func rows(in library: Library, statusesKnown: Bool, limit: Int = .max) -> [FeedRow] {
        var context = QueryContext(library: library, statusesKnown: statusesKnown)
        return rows(in: &context, limit: limit)
    }

    /// The rows of `context`'s library this query selects, newest first, at most `limit` of them;
    /// title regexes stopped by their limit are counted in `context`.
    public func rows(in context: inout QueryContext, limit: Int = .max) -> [FeedRow] {
        let (library, statusesKnown) = (context.library, context.statusesKnown)
        let hiding = rules.hidesAny && !(filter == .all && query == nil)
        let needle = search.lowercased()
        let now = Date()
        var rows: [FeedRow] = []
        for video in library.videos {
            if rows.count >= limit, filter != .upcoming { break }
            guard filter.admits(video, now: now, isAllView: filter == .all) else { continue }
            if let channelID, video.channelID != channelID { continue }
            if hideShorts, video.isShort { continue }
            let mark = library.marks[video.id]
            let status = Self.status(of: mark, statusesKnown: statusesKnown)
            guard filter.admits(status, hasProgress: filter == .inProgress && FeedFilter.hasProgress(video.id, in: library)) else { continue }
            let channelName = library.channels[video.channelID]?.displayName ?? video.channelID
            if !needle.isEmpty, !video.title.lowercased().contains(needle), !channelName.lowercased().contains(needle) { continue }
            if let query, !query.matches(video, in: &context) { continue }
            if hiding, rules.hides(video, in: &context) { continue }
            rows.append(FeedRow(video: video, channelName: channelName, mark: mark, status: status, position: library.playbackPositions[video.id]))
        }
        guard filter == .upcoming else { return rows }
        return Array(rows.sorted { FeedFilter.upcomingOrder($0.video, $1.video) }.prefix(limit))
    }
}
