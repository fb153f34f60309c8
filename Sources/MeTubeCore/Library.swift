import Foundation

/// Everything the client knows, in memory: channels, their videos newest first, and marks.
///
/// A value type: the store hands out copies, and readers never see a half-applied change.
public struct Library: Sendable, Equatable {
    /// Followed channels by id.
    public private(set) var channels: [String: Channel] = [:]
    /// Videos, newest first (ties by id, so the order is total and stable).
    public private(set) var videos: [Video] = []
    /// Marks by video id.
    public private(set) var marks = MarkTable()
    /// Where playback stopped, by video id (the newest saved position of each video).
    public private(set) var playbackPositions: [String: PlaybackPosition] = [:]
    /// What mark sync knows of each channel followed or unfollowed, by channel id (unfollows
    /// included, so they travel); a followed channel without one has not been recorded yet.
    public private(set) var subscriptions: [String: Subscription] = [:]
    /// The watch-later queue's entries by video id, removals included (so they travel); see
    /// ``queuedVideoIDs``.
    public internal(set) var queue: [String: QueueEntry] = [:]
    private var indexTable = VideoIndexTable()

    /// Creates a library from parts; `videos` need not be sorted or unique (the last copy wins).
    public init(channels: [Channel] = [], videos: [Video] = [], marks: [Mark] = []) {
        self.init(channels: channels, videos: videos, markTable: MarkTable(marks))
    }

    /// Creates a library from parts, with marks already in a table.
    public init(channels: [Channel], videos: [Video], markTable: MarkTable) {
        self.channels = Dictionary(channels.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.marks = markTable
        if Self.isInFeedOrder(videos) {
            self.videos = videos
            reindex()
        } else {
            upsert(videos)
        }
    }

    /// Whether `videos` is strictly in feed order, which also means no id appears twice.
    private static func isInFeedOrder(_ videos: [Video]) -> Bool {
        zip(videos, videos.dropFirst()).allSatisfy { feedOrder($0, $1) }
    }

    /// Whether `lhs` sorts before `rhs` in the feed: newer first, then by id.
    public static func feedOrder(_ lhs: Video, _ rhs: Video) -> Bool {
        lhs.published != rhs.published ? lhs.published > rhs.published : lhs.id < rhs.id
    }

    /// The video with `id`, if known.
    public func video(_ id: String) -> Video? { indexTable.index(of: id, in: videos).map { videos[$0] } }

    /// The position of the video `id` in ``videos``, if the library holds it.
    public func index(of id: String) -> Int? { indexTable.index(of: id, in: videos) }

    /// Adds or replaces videos; returns how many were new.
    @discardableResult
    public mutating func upsert(_ incoming: [Video]) -> Int {
        guard !incoming.isEmpty else { return 0 }
        // The last copy of each id, by its place in `incoming`: a video is copied only into the
        // library (a sync upserts hundreds of thousands).
        var latest: [String: Int] = [:]
        latest.reserveCapacity(incoming.count)
        for (place, video) in incoming.enumerated() { latest[video.id] = place }
        var needsSort = false
        var arrivals: [Int] = []
        for (id, place) in latest {
            if let index = indexTable.index(of: id, in: videos) {
                if videos[index].published != incoming[place].published { needsSort = true }
                videos[index] = Self.merged(old: videos[index], new: incoming[place])
            } else {
                arrivals.append(place)
            }
        }
        if needsSort {
            videos += arrivals.map { incoming[$0] }
            videos.sort(by: Self.feedOrder)
            reindex()
        } else if !arrivals.isEmpty {
            arrivals.sort { Self.feedOrder(incoming[$0], incoming[$1]) }
            Self.merge(arrivals, of: incoming, into: &videos)
            reindex()
        }
        return arrivals.count
    }

    /// Merges the videos of `incoming` at `places` (in feed order) into `videos` (in feed order),
    /// in place and in linear time (a sync's new videos into a large library, without sorting it
    /// again): from the back, each video of the library that must make room moves once, and none
    /// is copied.
    private static func merge(_ places: [Int], of incoming: [Video], into videos: inout [Video]) {
        if let last = videos.last, let first = places.first, feedOrder(last, incoming[first]) {
            videos += places.map { incoming[$0] }
            return
        }
        let oldCount = videos.count
        // Slots to merge into, filled with a video that holds nothing to count references of.
        videos += repeatElement(Video(id: "", channelID: "", title: "", published: Date(timeIntervalSince1970: 0)), count: places.count)
        videos.withUnsafeMutableBufferPointer { buffer in
            // Slots from `write` up are final; the old videos not yet placed are 0...old, and
            // the slots between them and `write` hold spent values to be overwritten.
            var write = buffer.count - 1
            var old = oldCount - 1
            var new = places.count - 1
            while new >= 0 {
                if old >= 0, feedOrder(incoming[places[new]], buffer[old]) {
                    buffer.swapAt(write, old)
                    old -= 1
                } else {
                    buffer[write] = incoming[places[new]]
                    new -= 1
                }
                write -= 1
            }
        }
    }

    /// Keeps what the old copy knew and the new one does not (a hub row may have no description, a WebSub push no counts).
    private static func merged(old: Video, new: Video) -> Video {
        var result = new
        result.duration = new.duration ?? old.duration
        result.keepDescription(of: old)
        result.thumbnailURL = new.thumbnailURL ?? old.thumbnailURL
        result.hubSeq = new.hubSeq ?? old.hubSeq
        result.isShortLink = new.isShortLink || old.isShortLink
        if result.scheduledStart == nil, new.availability == old.availability { result.scheduledStart = old.scheduledStart }
        result.views = new.views ?? old.views
        result.starRatings = new.starRatings ?? old.starRatings
        return result
    }

    /// Adds or updates a channel, keeping a known title (and tags) when the update has none.
    public mutating func upsert(_ channel: Channel) {
        var merged = channel
        if let old = channels[channel.id] {
            merged.title = channel.title ?? old.title
            merged.thumbnailURL = channel.thumbnailURL ?? old.thumbnailURL
            merged.addedAt = old.addedAt
            merged.tags = channel.tags ?? old.tags
        }
        channels[channel.id] = merged
    }

    /// Removes a channel and its videos; marks are kept, since they belong to the user.
    public mutating func removeChannel(_ id: String) {
        guard channels.removeValue(forKey: id) != nil else { return }
        videos.removeAll { $0.channelID == id }
        reindex()
    }

    /// Records a mark, replacing any earlier one for the same video.
    public mutating func apply(_ mark: Mark) {
        marks[mark.videoID] = mark
    }

    /// Records a playback position unless a newer one of the same video is already known. The
    /// same reading with the same seconds replaces it (a sync noting that the service holds it);
    /// with other seconds it is an older write that kept a stale reading, and is ignored.
    public mutating func apply(_ position: PlaybackPosition) {
        if let known = playbackPositions[position.videoID] {
            if known.isNewer(than: position) { return }
            if !position.isNewer(than: known), known.seconds != position.seconds { return }
        }
        playbackPositions[position.videoID] = position
    }

    /// Records what mark sync knows of a channel's subscription, replacing the earlier record.
    public mutating func apply(_ subscription: Subscription) {
        subscriptions[subscription.channelID] = subscription
    }

    /// The subscription of `channelID`: the recorded one, else, for a followed channel, the
    /// implicit pending follow of ``Subscription/init(implicit:deviceID:)``.
    public func subscription(of channelID: String, deviceID: String) -> Subscription? {
        subscriptions[channelID] ?? channels[channelID].map { Subscription(implicit: $0, deviceID: deviceID) }
    }

    /// Forgets the mark of `videoID`.
    public mutating func removeMark(_ videoID: String) {
        marks[videoID] = nil
    }

    private mutating func reindex() {
        indexTable = VideoIndexTable(videos)
    }

    public static func == (lhs: Library, rhs: Library) -> Bool {
        // `indexTable` is derived from `videos`.
        lhs.channels == rhs.channels && lhs.videos == rhs.videos && lhs.marks == rhs.marks && lhs.playbackPositions == rhs.playbackPositions
            && lhs.subscriptions == rhs.subscriptions && lhs.queue == rhs.queue
    }
}
