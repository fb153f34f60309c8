import Foundation

/// One condition of a query about a single video.
public enum QueryTerm: Sendable {
    /// Unwatched: no mark saying otherwise (a video whose status is not known yet counts).
    case unwatched
    case watched
    case skipped
    /// Partly watched: a saved position past the start, neither watched nor skipped.
    case inProgress
    /// Marked on this device and not yet acknowledged by the mark-sync service.
    case pending
    /// Marked differently on another device at the same time, waiting for the user.
    case conflict
    /// A Short.
    case short
    /// The channel carries this tag (compared case-insensitively; held lowercased).
    case tag(String)
    /// The channel has this id.
    case channelID(String)
    /// The channel's name is this (compared case-insensitively; held lowercased).
    case channelName(String)
    /// The title matches this regular expression.
    case title(BoundedRegex)
    /// The length compares so with this many seconds; a video of unknown length never matches.
    case duration(QueryComparison, seconds: Int)
    /// The time since publication compares so with this many seconds.
    case age(QueryComparison, seconds: Int)

    /// Whether `video` meets this condition; a title regex stopped by its limit counts as no
    /// match and is counted in `context` (past ``QueryContext/stoppedRegexLimit`` stops, title
    /// regexes are no longer run in that context, so a pattern that explodes on every title costs
    /// a bounded time in all).
    func matches(_ video: Video, in context: inout QueryContext) -> Bool {
        switch self {
        case .unwatched: return context.status(of: video) != .watched && context.status(of: video) != .skipped
        case .watched: return context.status(of: video) == .watched
        case .skipped: return context.status(of: video) == .skipped
        case .inProgress: return QueryTerm.unwatched.matches(video, in: &context) && FeedFilter.hasProgress(video.id, in: context.library)
        case .pending: return context.library.marks[video.id]?.syncState == .pending
        case .conflict: return context.library.marks[video.id]?.syncState == .conflict
        case .short: return video.isShort
        case .tag(let tag): return context.channel(video.channelID, hasTag: tag)
        case .channelID(let id): return video.channelID == id
        case .channelName(let name): return context.channel(video.channelID, isNamed: name)
        case .title(let regex):
            guard context.stoppedRegexes < QueryContext.stoppedRegexLimit else {
                context.stoppedRegexes += 1
                return false
            }
            switch regex.firstMatch(in: video.title) {
            case .match: return true
            case .noMatch: return false
            case .stopped:
                context.stoppedRegexes += 1
                return false
            }
        case let .duration(comparison, seconds):
            guard let duration = video.duration, duration > 0 else { return false }
            return comparison.holds(duration, seconds)
        case let .age(comparison, seconds):
            return comparison.holds(Int(context.now.timeIntervalSince(video.published).rounded(.down)), seconds)
        }
    }
}

/// How an amount compares with a term's limit: `<`, `<=`, `>`, `>=` or `=`.
public enum QueryComparison: String, Sendable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "="

    func holds(_ amount: Int, _ limit: Int) -> Bool {
        switch self {
        case .less: amount < limit
        case .lessOrEqual: amount <= limit
        case .greater: amount > limit
        case .greaterOrEqual: amount >= limit
        case .equal: amount == limit
        }
    }
}
