import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeFeeds

/// The hub's storage: registered channels and their newest videos under a global `seq`.
///
/// Implementations must hand out `seq` values that only grow and are never reused, answer
/// queries in ascending `seq` order, and keep about `HubAPI.videosKeptPerChannel` videos per channel.
public protocol HubRepository: Sendable {
    /// Adds the given (already validated, distinct) channel ids; existing ones are left alone.
    func register(channelIDs: [String]) async throws -> HubRegisterResponse
    /// Up to `limit` registered channels whose ids sort after `channelID` (from the first when
    /// nil), in id order.
    func channels(after channelID: String?, limit: Int) async throws -> [HubChannel]
    /// The ids of every registered channel, for the feed poller.
    func registeredChannelIDs() async throws -> [String]
    /// The videos with `seq > query.afterSeq` of `query.channelIDs` (all when empty), lowest
    /// `seq` first, at most `query.limit`.
    func videos(matching query: HubVideoSelection) async throws -> HubVideoPage
    /// Merges one fetched feed, in one transaction: updates the channel's title, reads the
    /// ``StoredVideoDetails`` of the feed's videos the hub holds, and writes what `plan` makes of
    /// them: each of ``FeedIngestionPlan/resequenced`` under a fresh `seq` of its own, in order
    /// (fields the video lacks keep their stored values), ``FeedIngestionPlan/refreshed`` in place,
    /// then the trimming of ``FeedIngestionPlan/trimmedChannelIDs``. Returns the plan's outcome.
    /// The rules are the plan's; callers use ``ingest(_:)``.
    func ingest(
        _ ingestion: FeedIngestion, planning plan: @escaping @Sendable (_ known: [String: StoredVideoDetails]) -> FeedIngestionPlan
    ) async throws -> FeedIngestionOutcome
    /// Keeps, per channel, when its feed was last fetched and how many fetches in a row failed
    /// (with the last reason), for `metube-server channels list`. Unknown channels are ignored.
    func recordFetches(_ records: [ChannelFetchRecord]) async throws
    /// The version of the stored videos: it changes with every change to them, from any
    /// process, so two equal versions mean equal `videos(matching:)` answers; nil when the
    /// repository cannot tell, and then nothing is cached.
    func videosVersion() async throws -> Int64?
    /// `videos(matching:)`, with the ``videosVersion()`` of the very state the page was read from.
    func versionedVideos(matching query: HubVideoSelection) async throws -> (page: HubVideoPage, version: Int64?)
    /// Those of `channelIDs` whose feed no fetch has been recorded for (``recordFetches(_:)``),
    /// by any server sharing the storage.
    func neverFetchedChannelIDs(among channelIDs: [String]) async throws -> Set<String>
    /// Those of `videoIDs` the hub holds: the poller asks a channel's Shorts feed only about
    /// uploads it does not (``ShortsFeed``).
    func storedVideoIDs(among videoIDs: [String]) async throws -> Set<String>
}

extension HubRepository {
    /// Merges one fetched feed as ``FeedIngestionPlan`` decides, once ``IngestScreen`` has
    /// screened its text and links: new videos and those whose title, availability or description
    /// changed get a fresh `seq` each, counts and thumbnails are refreshed in place (see
    /// ``StoredVideoDetails``), and the channels written to keep their newest
    /// ``FeedIngestionPlan/keptPerChannel`` videos.
    public func ingest(_ ingestion: FeedIngestion) async throws -> FeedIngestionOutcome {
        let screened = IngestScreen.ingestion(ingestion)
        return try await ingest(screened) { known in FeedIngestionPlan(screened, known: known) }
    }

    /// No version: answers are never cached.
    public func videosVersion() async throws -> Int64? { nil }

    /// The page without a version.
    public func versionedVideos(matching query: HubVideoSelection) async throws -> (page: HubVideoPage, version: Int64?) {
        (try await videos(matching: query), nil)
    }

    /// Every channel, when the repository keeps no fetch records.
    public func neverFetchedChannelIDs(among channelIDs: [String]) async throws -> Set<String> {
        Set(channelIDs)
    }

    /// None, when the repository cannot tell: every upload looks new.
    public func storedVideoIDs(among videoIDs: [String]) async throws -> Set<String> { [] }
}

/// How one feed fetch went, for the operator.
public struct ChannelFetchRecord: Sendable, Equatable {
    /// The longest failure reason kept; longer ones are cut.
    public static let maxReasonLength = 200

    /// The channel whose feed was fetched.
    public var channelID: String
    /// When the fetch ended.
    public var fetchedAt: Date
    /// Why it failed (cut to ``maxReasonLength`` characters), or `nil` when it succeeded.
    public var failure: String?

    /// A record; a failure reason is cut to ``maxReasonLength`` characters.
    public init(channelID: String, fetchedAt: Date, failure: String?) {
        self.channelID = channelID
        self.fetchedAt = fetchedAt
        self.failure = failure.map { String($0.prefix(Self.maxReasonLength)) }
    }
}

/// A validated `videos/query`.
public struct HubVideoSelection: Sendable, Equatable {
    /// The channels to include; empty means all.
    public var channelIDs: [String]
    /// Only rows after this `seq`.
    public var afterSeq: Int64
    /// The page size.
    public var limit: Int

    /// Creates a selection.
    public init(channelIDs: [String] = [], afterSeq: Int64 = 0, limit: Int = HubAPI.defaultQueryLimit) {
        self.channelIDs = channelIDs
        self.afterSeq = afterSeq
        self.limit = limit
    }
}

/// One feed's worth of data for `HubRepository.ingest`.
public struct FeedIngestion: Sendable {
    /// The channel whose feed was fetched.
    public var channelID: String
    /// The channel's title from the feed, if it named one.
    public var channelTitle: String?
    /// The feed's videos (possibly of other channels, which are stored under their own id).
    public var videos: [Video]
    /// Whether the videos are the channel's backfill (``ChannelCatalogService``), not its feed:
    /// those stored new are served with `backfilled: true`.
    public var backfilled: Bool

    /// Creates an ingestion.
    public init(channelID: String, channelTitle: String?, videos: [Video], backfilled: Bool = false) {
        self.channelID = channelID
        self.channelTitle = channelTitle
        self.videos = videos
        self.backfilled = backfilled
    }
}

/// What `HubRepository.ingest` changed.
public struct FeedIngestionOutcome: Sendable, Equatable {
    /// Videos stored for the first time.
    public var inserted: Int
    /// Known videos whose title changed (they got a fresh `seq`).
    public var updated: Int

    /// Creates an outcome.
    public init(inserted: Int, updated: Int) {
        self.inserted = inserted
        self.updated = updated
    }
}

extension HubVideo {
    /// The wire row for `video` stored under `seq`.
    init(_ video: Video, seq: Int64) {
        self.init(
            seq: seq, videoID: video.id, channelID: video.channelID,
            publishedAt: ISO8601Timestamp.format(video.published), title: video.title, url: video.hubURL,
            durationSeconds: video.duration, availability: video.storedAvailability,
            scheduledStart: video.scheduledStart.map { ISO8601Timestamp.format($0) },
            description: video.description, thumbnailURL: video.thumbnailURL, viewCount: video.views, starRatingCount: video.starRatings
        )
    }

    /// A stored row: `published` and `scheduledStart` in seconds since 1970, `availability` NULL
    /// for available, what else the feed said of the video, and whether a backfill brought it.
    init(seq: Int64, videoID: String, channelID: String, published: Double, title: String?, url: String, duration: Int?,
         availability: String?, scheduledStart: Double?, description: String?, thumbnailURL: String?, viewCount: Int?, starRatingCount: Int?,
         backfilled: Bool) {
        self.init(
            seq: seq, videoID: videoID, channelID: channelID, publishedAt: ISO8601Timestamp.format(Date(timeIntervalSince1970: published)),
            title: title, url: url, durationSeconds: duration, availability: availability,
            scheduledStart: scheduledStart.map { ISO8601Timestamp.format(Date(timeIntervalSince1970: $0)) },
            description: description, thumbnailURL: thumbnailURL, viewCount: viewCount, starRatingCount: starRatingCount,
            backfilled: backfilled ? true : nil
        )
    }
}

extension Video {
    /// The URL the hub reports for this video: the Shorts link for Shorts, else the watch page.
    var hubURL: String { isShortLink ? "https://www.youtube.com/shorts/\(id)" : url }

    /// The `availability` column's value: nil for an available video.
    var storedAvailability: String? { availability == .available ? nil : availability.rawValue }
}
