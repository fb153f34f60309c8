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

    /// Creates a row.
    public init(
        seq: Int64, videoID: String, channelID: String, publishedAt: String, title: String?, url: String,
        durationSeconds: Int? = nil
    ) {
        self.seq = seq
        self.videoID = videoID
        self.channelID = channelID
        self.publishedAt = publishedAt
        self.title = title
        self.url = url
        self.durationSeconds = durationSeconds
    }

    enum CodingKeys: String, CodingKey {
        case seq
        case videoID = "videoId"
        case channelID = "channelId"
        case publishedAt
        case title
        case url
        case durationSeconds
    }

    /// Encodes every key, writing `null` for unknown values as the hub does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(videoID, forKey: .videoID)
        try container.encode(channelID, forKey: .channelID)
        try container.encode(publishedAt, forKey: .publishedAt)
        try container.encode(title, forKey: .title)
        try container.encode(url, forKey: .url)
        try container.encode(durationSeconds, forKey: .durationSeconds)
    }
}
