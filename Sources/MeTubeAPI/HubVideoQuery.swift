/// The body of `POST /api/videos/query`.
public struct HubVideoQuery: Codable, Sendable, Equatable {
    /// Restricts the answer to these channels (at most `HubAPI.maxQueryChannelIDs`); nil or empty
    /// means every channel.
    public var channelIDs: [String]?
    /// Only rows with a `seq` greater than this are returned (default 0).
    public var afterSeq: Int64?
    /// The page size, `HubAPI.queryLimitRange` (default `HubAPI.defaultQueryLimit`).
    public var limit: Int?

    /// Creates a query.
    public init(channelIDs: [String]? = nil, afterSeq: Int64? = nil, limit: Int? = nil) {
        self.channelIDs = channelIDs
        self.afterSeq = afterSeq
        self.limit = limit
    }

    enum CodingKeys: String, CodingKey {
        case channelIDs = "channelIds"
        case afterSeq
        case limit
    }

    /// Decodes a query, refusing an `afterSeq` outside `0...HubAPI.maxAfterSeq` and a `limit`
    /// outside `HubAPI.queryLimitRange`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limits = HubAPI.queryLimitRange
        channelIDs = try container.decodeIfPresent([String].self, forKey: .channelIDs)
        afterSeq = try container.decodeWholeNumberIfPresent(Int64.self, forKey: .afterSeq, in: 0...HubAPI.maxAfterSeq)
        limit = try container.decodeWholeNumberIfPresent(Int.self, forKey: .limit, in: limits.lowerBound...limits.upperBound)
    }
}

/// The answer to `POST /api/videos/query`.
public struct HubVideoPage: Codable, Sendable, Equatable {
    /// The videos with `seq > afterSeq`, lowest `seq` first (metube-server's order; other hubs may
    /// differ, so clients should not rely on it).
    public var videos: [HubVideo]
    /// The largest `seq` in `videos`, or the query's `afterSeq` when `videos` is empty.
    public var maxSeqReturned: Int64

    /// Creates a page.
    public init(videos: [HubVideo], maxSeqReturned: Int64) {
        self.videos = videos
        self.maxSeqReturned = maxSeqReturned
    }

    private enum CodingKeys: String, CodingKey { case videos, maxSeqReturned }

    /// Decodes a page, refusing a `maxSeqReturned` outside `0...HubAPI.maxAfterSeq`: the client
    /// sends it back as the next `afterSeq`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        videos = try container.decode([HubVideo].self, forKey: .videos)
        maxSeqReturned = try container.decodeWholeNumber(Int64.self, forKey: .maxSeqReturned, in: 0...HubAPI.maxAfterSeq)
    }
}

/// One video row of a `HubVideoPage`.
public struct HubVideo: Codable, Sendable, Equatable {
    /// The hub's global, never reused, increasing sequence number of this row.
    public var seq: Int64
    /// The video id.
    public var videoID: String
    /// The uploading channel's id.
    public var channelID: String
    /// The publication time as ISO-8601 text (`2025-12-10T18:11:22Z`; other hubs may add fractions).
    public var publishedAt: String
    /// The title; may be null on the wire.
    public var title: String?
    /// The watch URL.
    public var url: String
    /// The length in seconds, best-effort; may be null.
    public var durationSeconds: Int?
    /// Whether the video can be watched now (`available`, `upcoming`, `live`, `members-only`,
    /// `gone`, `private`); absent means `available`. Additive: older hubs do not send it.
    public var availability: String?
    /// When an upcoming premiere or stream is scheduled to start, as ISO-8601 text; absent when
    /// not known. Additive.
    public var scheduledStart: String?
    /// The feed's description (`media:description`); metube-server's addition, absent when unknown.
    public var description: String?
    /// The thumbnail's address (`media:thumbnail`); metube-server's addition, absent when unknown.
    public var thumbnailURL: String?
    /// The view count the feed last gave (`media:statistics`); metube-server's addition, absent
    /// when unknown. Refreshed in place: a changed count does not give the row a new `seq`.
    public var viewCount: Int?
    /// How many rated the video, as the feed last gave it (`media:starRating`'s count);
    /// metube-server's addition, absent when unknown, refreshed in place like ``viewCount``.
    public var starRatingCount: Int?
    /// Whether the hub brought the video in by backfilling its channel (a newly followed
    /// channel's last uploads) rather than from its feed: a client stores it like any other but
    /// does not count it among the new videos. metube-server's addition, absent when false.
    public var backfilled: Bool?

    /// Creates a row.
    public init(
        seq: Int64, videoID: String, channelID: String, publishedAt: String, title: String?, url: String,
        durationSeconds: Int? = nil, availability: String? = nil, scheduledStart: String? = nil, description: String? = nil,
        thumbnailURL: String? = nil, viewCount: Int? = nil, starRatingCount: Int? = nil, backfilled: Bool? = nil
    ) {
        self.seq = seq
        self.videoID = videoID
        self.channelID = channelID
        self.publishedAt = publishedAt
        self.title = title
        self.url = url
        self.durationSeconds = durationSeconds
        self.availability = availability
        self.scheduledStart = scheduledStart
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.viewCount = viewCount
        self.starRatingCount = starRatingCount
        self.backfilled = backfilled
    }

    enum CodingKeys: String, CodingKey {
        case seq
        case videoID = "videoId"
        case channelID = "channelId"
        case publishedAt
        case title
        case url
        case durationSeconds
        case availability
        case scheduledStart
        case description
        case thumbnailURL = "thumbnailUrl"
        case viewCount
        case starRatingCount
        case backfilled
    }

    /// Decodes a row, refusing a `seq` outside `1...HubAPI.maxAfterSeq` (it becomes the next
    /// `afterSeq`) and a `durationSeconds`, `viewCount` or `starRatingCount` that is not a whole
    /// number; an `availability` or `scheduledStart` that is not text is ignored (the video counts
    /// as available).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decodeWholeNumber(Int64.self, forKey: .seq, in: 1...HubAPI.maxAfterSeq)
        videoID = try container.decode(String.self, forKey: .videoID)
        channelID = try container.decode(String.self, forKey: .channelID)
        publishedAt = try container.decode(String.self, forKey: .publishedAt)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        url = try container.decode(String.self, forKey: .url)
        durationSeconds = try container.decodeWholeNumberIfPresent(Int.self, forKey: .durationSeconds, in: Int.min...Int.max)
        availability = try? container.decodeIfPresent(String.self, forKey: .availability)
        scheduledStart = try? container.decodeIfPresent(String.self, forKey: .scheduledStart)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        thumbnailURL = try container.decodeIfPresent(String.self, forKey: .thumbnailURL)
        viewCount = try container.decodeWholeNumberIfPresent(Int.self, forKey: .viewCount, in: Int.min...Int.max)
        starRatingCount = try container.decodeWholeNumberIfPresent(Int.self, forKey: .starRatingCount, in: Int.min...Int.max)
        backfilled = try? container.decodeIfPresent(Bool.self, forKey: .backfilled)
    }

    /// Encodes every key of the hub API, writing `null` for unknown values as the hub does, and
    /// metube-server's additions (availability, details) only when known, `backfilled` only when true.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(videoID, forKey: .videoID)
        try container.encode(channelID, forKey: .channelID)
        try container.encode(publishedAt, forKey: .publishedAt)
        try container.encode(title, forKey: .title)
        try container.encode(url, forKey: .url)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encodeIfPresent(availability, forKey: .availability)
        try container.encodeIfPresent(scheduledStart, forKey: .scheduledStart)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(thumbnailURL, forKey: .thumbnailURL)
        try container.encodeIfPresent(viewCount, forKey: .viewCount)
        try container.encodeIfPresent(starRatingCount, forKey: .starRatingCount)
        if backfilled == true { try container.encode(true, forKey: .backfilled) }
    }
}
