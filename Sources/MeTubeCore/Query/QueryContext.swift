import Foundation

/// What evaluating a query needs beyond the video: the library (marks, positions, channels and
/// their tags), whether statuses are known, and the time `age` counts from. Counts the title
/// regexes stopped by their limit, so a caller can say so.
public struct QueryContext: Sendable {
    /// The library the videos belong to.
    public let library: Library
    /// Whether a video without a mark is known to be unwatched (see ``FeedQuery/status(of:statusesKnown:)``).
    public let statusesKnown: Bool
    /// The time `age` terms count from.
    public let now: Date
    /// How many title regex evaluations were stopped by their limit (or skipped after
    /// ``stoppedRegexLimit`` stops) so far; those count as not matching.
    public internal(set) var stoppedRegexes = 0

    /// After this many stopped evaluations, title regexes are no longer run in this context.
    public static let stoppedRegexLimit = 8

    /// Creates a context.
    public init(library: Library, statusesKnown: Bool, now: Date = Date()) {
        self.library = library
        self.statusesKnown = statusesKnown
        self.now = now
    }

    /// What `video`'s row shows as status.
    func status(of video: Video) -> DisplayStatus {
        FeedQuery.status(of: library.marks[video.id], statusesKnown: statusesKnown)
    }
}
