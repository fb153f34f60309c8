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

    /// The channels carrying each tag asked about so far (lowercased), worked out once per tag,
    /// so a `tag:` term costs one set lookup per video instead of lowercasing the channel's tags.
    private var channelsByTag: [String: Set<String>] = [:]
    /// The channels with each display name asked about so far (lowercased), likewise.
    private var channelsByName: [String: Set<String>] = [:]

    /// Creates a context.
    public init(library: Library, statusesKnown: Bool, now: Date = Date()) {
        self.library = library
        self.statusesKnown = statusesKnown
        self.now = now
    }

    /// Whether the channel `channelID` carries `tag` (lowercased), compared case-insensitively.
    mutating func channel(_ channelID: String, hasTag tag: String) -> Bool {
        if let channels = channelsByTag[tag] { return channels.contains(channelID) }
        let channels = Set(library.channels.values.filter { $0.tags?.contains { $0.lowercased() == tag } ?? false }.map(\.id))
        channelsByTag[tag] = channels
        return channels.contains(channelID)
    }

    /// Whether the channel `channelID` is named `name` (lowercased), compared case-insensitively;
    /// a channel the library does not hold is named by its id.
    mutating func channel(_ channelID: String, isNamed name: String) -> Bool {
        let channels: Set<String>
        if let known = channelsByName[name] {
            channels = known
        } else {
            channels = Set(library.channels.values.filter { $0.displayName.lowercased() == name }.map(\.id))
            channelsByName[name] = channels
        }
        return channels.contains(channelID) || (library.channels[channelID] == nil && channelID.lowercased() == name)
    }

    /// What `video`'s row shows as status.
    func status(of video: Video) -> DisplayStatus {
        FeedQuery.status(of: library.marks[video.id], statusesKnown: statusesKnown)
    }
}
