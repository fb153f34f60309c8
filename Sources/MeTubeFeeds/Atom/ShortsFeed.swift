import MeTubeCore

/// A channel's Shorts playlist feed (`feeds/videos.xml?playlist_id=UUSH…`): the channel's Shorts
/// only, under the channel id with its `UC` replaced by `UUSH` (iv-org/invidious#4846; see
/// docs/shorts.md). The channel feed links a Short as `/shorts/ID` only sometimes; the pollers ask
/// this feed about the new uploads it links as ordinary videos, and mark those it lists as Shorts.
/// When the Shorts feed fails, the link alone decides, as before.
public enum ShortsFeed {
    /// How many of the Shorts feed's entries are read: YouTube's feeds carry the 15 newest items,
    /// and the 15 newest Shorts include every Short among the channel feed's 15 newest uploads.
    /// A feed with more entries is read no further.
    public static let maxEntries = 15
    /// The largest Shorts feed body read: 15 entries with the longest descriptions fit well within.
    public static let maxBodyBytes = 1 << 20

    /// The Shorts playlist id of `channelID` (`UC…` → `UUSH…`); nil for anything but a channel id.
    public static func playlistID(of channelID: String) -> String? {
        guard ChannelID.isValid(channelID), channelID.hasPrefix("UC") else { return nil }
        return "UUSH" + channelID.dropFirst(2)
    }

    /// The Shorts feed URL of `channelID` for a channel feed URL template: YouTube's shape
    /// (`…?channel_id={channelId}`) with `playlist_id=UUSH…` in its place. Nil when the template
    /// has another shape (a feed server that is not YouTube's has no Shorts feed) or the id is
    /// not a channel id.
    public static func url(channelFeedTemplate template: String, channelID: String) -> String? {
        guard exists(channelFeedTemplate: template), let playlistID = playlistID(of: channelID) else { return nil }
        return template.replacingOccurrences(of: channelPlaceholder, with: "playlist_id=" + playlistID)
    }

    /// Whether channels fetched through the channel feed URL `template` have Shorts feeds: it has
    /// YouTube's shape.
    public static func exists(channelFeedTemplate template: String) -> Bool {
        template.contains(channelPlaceholder)
    }

    private static let channelPlaceholder = "channel_id={channelId}"

    /// The uploads of `channelID` the channel feed `feed` links as ordinary videos: the Shorts
    /// feed is worth a request only when one of them is new (not yet stored).
    public static func uploadsToCheck(in feed: AtomFeed, channelID: String) -> [String] {
        feed.entries.filter { $0.channelID == channelID && !$0.isShortLink }.map(\.videoID)
    }

    /// The ids `shortsFeed` lists as Shorts of `channelID`: among its first ``maxEntries``
    /// entries, those of that channel (entries of another channel are ignored). A feed naming
    /// another playlist lists none.
    public static func shortIDs(in shortsFeed: AtomFeed, channelID: String) -> Set<String> {
        if let listed = shortsFeed.playlistID, listed != playlistID(of: channelID) { return [] }
        return Set(shortsFeed.entries.prefix(maxEntries).filter { $0.channelID == channelID }.map(\.videoID))
    }
}

extension Video {
    /// This video, marked a Short (``isShortLink``) when `shortIDs` lists it.
    public func marked(shorts shortIDs: Set<String>) -> Video {
        guard shortIDs.contains(id) else { return self }
        var video = self
        video.isShortLink = true
        return video
    }
}
