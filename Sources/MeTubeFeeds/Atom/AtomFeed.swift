import Foundation
import MeTubeCore

/// A parsed YouTube Atom document: a channel feed, a playlist feed or a WebSub push.
public struct AtomFeed: Sendable, Equatable {
    /// The channel the feed belongs to (the owner, for a playlist feed), with its `UC` prefix;
    /// nil when the document names none (e.g. a deletion push).
    public var channelID: String?
    /// The playlist id, for a playlist feed.
    public var playlistID: String?
    /// The feed's title: the channel title, the playlist title, or WebSub's fixed text.
    public var title: String?
    /// The feed author's name (the channel title for channel and playlist feeds).
    public var authorName: String?
    /// The entries, in document order.
    public var entries: [AtomEntry]
    /// Video ids announced as deleted (`at:deleted-entry` in WebSub pushes).
    public var deletedVideoIDs: [String]
    /// When each deletion happened (`at:deleted-entry`'s `when`), for those that say so readably.
    public var deletionTimes: [String: Date]

    /// Creates a feed from its parts.
    public init(
        channelID: String? = nil, playlistID: String? = nil, title: String? = nil, authorName: String? = nil,
        entries: [AtomEntry] = [], deletedVideoIDs: [String] = [], deletionTimes: [String: Date] = [:]
    ) {
        self.channelID = channelID
        self.playlistID = playlistID
        self.title = title
        self.authorName = authorName
        self.entries = entries
        self.deletedVideoIDs = deletedVideoIDs
        self.deletionTimes = deletionTimes
    }

    /// Whether this is a playlist feed rather than a channel feed.
    public var isPlaylist: Bool { playlistID != nil }

    /// The channel's title as best known: the title of a channel feed, else its author name.
    /// Nil for playlist feeds (their title names the playlist) and WebSub pushes.
    public var channelTitle: String? {
        guard !isPlaylist else { return nil }
        return [title, authorName].compactMap { $0 }.first { !$0.isEmpty && $0 != "YouTube video feed" }
    }
}

/// One `<entry>` of a YouTube Atom feed.
public struct AtomEntry: Sendable, Equatable {
    /// The video id.
    public var videoID: String
    /// The uploading channel's id with its `UC` prefix (may differ from the feed's channel).
    public var channelID: String
    /// The title; empty when the entry has none.
    public var title: String
    /// The watch link (`watch?v=` or `shorts/`), when present.
    public var link: String?
    /// The uploader's name, when present.
    public var authorName: String?
    /// When the video was published, when present and readable.
    public var published: Date?
    /// When the entry last changed (changes with view counts; not a sign of a new video).
    public var updated: Date?
    /// `media:description`, when present (cut to `FeedLimits.maxDescriptionBytes`).
    public var description: String?
    /// `media:thumbnail`'s URL, when present.
    public var thumbnailURL: String?
    /// `media:statistics`' view count, when present and in `FeedLimits.count`'s range.
    public var views: Int?
    /// `media:starRating`'s count (how many rated the video), when present and in range.
    public var starRatings: Int?

    /// Creates an entry from its parts.
    public init(
        videoID: String, channelID: String, title: String, link: String? = nil, authorName: String? = nil,
        published: Date? = nil, updated: Date? = nil, description: String? = nil, thumbnailURL: String? = nil,
        views: Int? = nil, starRatings: Int? = nil
    ) {
        self.videoID = videoID
        self.channelID = channelID
        self.title = title
        self.link = link
        self.authorName = authorName
        self.published = published
        self.updated = updated
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.views = views
        self.starRatings = starRatings
    }

    /// Whether the feed links this video as a Short (`/shorts/` instead of `watch?v=`).
    public var isShortLink: Bool {
        guard var link else { return false }
        return link.withUTF8 { bytes in
            let marker = Self.shortsMarker
            guard bytes.count >= marker.count else { return false }
            return (0...(bytes.count - marker.count)).contains { start in
                UnsafeBufferPointer(rebasing: bytes[start..<(start + marker.count)]).elementsEqual(marker)
            }
        }
    }

    private static let shortsMarker = Array("/shorts/".utf8)

    /// How recent an entry with no views must be to count as a premiere or stream not started
    /// yet: an older one with no views is just unwatched by anyone, and available.
    public static let upcomingWindow: TimeInterval = 3 * 86_400

    /// Whether the feed alone says the video has not started: no views (`media:statistics
    /// views="0"`, which YouTube gives a scheduled premiere or stream) on an entry published
    /// within ``upcomingWindow`` of `now`.
    public func looksUpcoming(now: Date) -> Bool {
        guard views == 0, let published = published ?? updated else { return false }
        return abs(now.timeIntervalSince(published)) <= Self.upcomingWindow
    }

    /// The entry as a `Video`; `fallbackDate`, the time of reading, stands in for a missing
    /// publication date (`updated` is preferred when it is present) and judges whether the
    /// entry is upcoming (``looksUpcoming(now:)``).
    public func video(fallbackDate: Date) -> Video {
        Video(
            id: videoID, channelID: channelID, title: title, published: published ?? updated ?? fallbackDate,
            description: description, thumbnailURL: thumbnailURL, isShortLink: isShortLink,
            availability: looksUpcoming(now: fallbackDate) ? .upcoming : .available, views: views, starRatings: starRatings
        )
    }
}
