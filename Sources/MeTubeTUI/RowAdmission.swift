import Foundation
import MeTubeCore

/// What a view asks of a video before its query, read from compact columns (statuses,
/// ``VideoFlags``, `hide` rules): availability, Shorts, channel, status. The feed's row scan and
/// the view picker's counts share it, so both leave out the same videos.
struct RowAdmission {
    let filter: FeedFilter
    /// Whether the filter is `all` (with a query or not): it shows what is upcoming or gone, and a
    /// query only cuts that list.
    let isAllView: Bool
    let hideShorts: Bool
    let channelID: String?
    /// Whether `hide` rules leave each video out (empty when none does, or in the `all` view
    /// without a query).
    let hidden: [Bool]
    let now: Date

    /// The admission of `filter` (with a query when `hasQuery`) in the channel and Shorts choice
    /// of `query`.
    init(filter: FeedFilter, hasQuery: Bool, query: FeedQuery, hiddenByRules: [Bool], now: Date) {
        self.filter = filter
        isAllView = filter == .all
        hideShorts = query.hideShorts
        channelID = query.channelID
        hidden = isAllView && !hasQuery ? [] : hiddenByRules
        self.now = now
    }

    /// Whether the video at `index` may show at all: availability, Shorts and channel (sticky
    /// rows too must pass this).
    @inline(__always)
    func admitsVideo(at index: Int, of videos: UnsafeBufferPointer<Video>, flags: VideoFlags) -> Bool {
        // Only a video flagged not plainly available can be upcoming or live: the upcoming view
        // reads no other video's record.
        if filter == .upcoming, !flags.contains(.notAvailable) { return false }
        if flags.contains(.notAvailable), !filter.admits(videos[index], now: now, isAllView: isAllView) { return false }
        if hideShorts, flags.contains(.short) { return false }
        if let channelID, videos[index].channelID != channelID { return false }
        return true
    }

    /// Whether the video at `index` passes the status filter and the `hide` rules.
    @inline(__always)
    func admitsStatus(_ status: DisplayStatus, flags: VideoFlags, at index: Int) -> Bool {
        filter.admits(status, hasProgress: flags.contains(.hasProgress)) && (hidden.isEmpty || !hidden[index])
    }
}
