import Foundation
import MeTubeAPI
import MeTubeCore
import PostgresNIO

/// A ``HubRepository`` in PostgreSQL, correct with any number of server instances writing.
///
/// **Why no reader ever misses a row.** `seq` values come from the single counter row
/// `hub_counters.last_seq`, incremented inside the ingesting transaction. Its row lock is held
/// until that transaction ends, so ingests that hand out `seq`s run one after another and commit
/// in `seq` order: when a reader's snapshot holds a row, every row with a smaller `seq` that was
/// ever stored has committed before it and is in the snapshot too (unless trimmed or
/// re-sequenced, which moves it past the reader's position). A `SEQUENCE` would not do: its
/// numbers are handed out at once, and a transaction holding a small one can commit after one
/// holding a larger one, which a reader paging with `afterSeq` would then skip for good.
/// ``videos(matching:)`` is one statement, so it reads one snapshot.
///
/// **Why every instance decides as SQLite does.** An ingest locks the counter's row before it
/// reads the stored details it plans from (``FreshSeqs/lock(_:_:)``), as every writer that hands
/// out `seq`s does. So ``FeedIngestionPlan`` decides on the rows the ingest writes over, as it
/// does on SQLite, whose writes run one at a time: of two instances ingesting the same video at
/// once, the second sees the first's row, and stores it again only if it changed.
///
/// **Why a cached page is never stale.** A trigger on `hub_videos` (``PostgresMigrations``,
/// `postgres-hub-004-videos-version`) counts up the `videos_version` row in every transaction that writes
/// videos, whichever instance or command runs it, and the count commits with the change. A page
/// is read with the version in one statement, and ``HubService`` serves it again only while
/// ``videosVersion()`` still reads that version. Writers lock `last_seq` before they write
/// `hub_videos` (and so `videos_version`), never the other way round.
public struct PostgresHubRepository: HubRepository {
    private let database: PostgresServerDatabase

    /// The hub tables of `database`.
    public init(database: PostgresServerDatabase) {
        self.database = database
    }

    public func register(channelIDs: [String]) async throws -> HubRegisterResponse {
        let now = Int64(Date().timeIntervalSince1970)
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                var inserted = 0
                let rows = try await connection.query(
                    """
                    INSERT INTO hub_channels (channel_id, registered_at) SELECT id, \(now) FROM unnest(\(channelIDs)::text[]) AS id
                    ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id
                    """, logger: database.logger)
                for try await _ in rows { inserted += 1 }
                let total = try await PostgresServerDatabase.single(Int.self, connection.query("SELECT count(*) FROM hub_channels", logger: database.logger)) ?? 0
                return HubRegisterResponse(
                    requested: channelIDs.count, inserted: inserted, alreadyPresent: channelIDs.count - inserted, totalChannels: total)
            }
        }
    }

    public func channels(after channelID: String?, limit: Int) async throws -> [HubChannel] {
        let rows = try await database.query(
            "SELECT channel_id, title, thumbnail_url FROM hub_channels WHERE channel_id > \(channelID ?? "") ORDER BY channel_id LIMIT \(limit)")
        return try rows.map { row in
            let (id, title, thumbnail) = try row.decode((String, String?, String?).self)
            return HubChannel(channelID: id, title: title, thumbnailURL: thumbnail)
        }
    }

    public func registeredChannelIDs() async throws -> [String] {
        try await database.query("SELECT channel_id FROM hub_channels ORDER BY registered_at, channel_id").map { try $0.decode(String.self) }
    }

    public func videos(matching query: HubVideoSelection) async throws -> HubVideoPage {
        try await versionedVideos(matching: query).page
    }

    public func videosVersion() async throws -> Int64? {
        try await database.query("SELECT value FROM hub_counters WHERE name = 'videos_version'").first?.decode(Int64.self)
    }

    /// The page and the `videos_version` counter (see ``PostgresMigrations``) in one statement,
    /// so both come from one snapshot: the counter row is joined to the page's rows, and stands
    /// alone (with nulls) when the page is empty.
    public func versionedVideos(matching query: HubVideoSelection) async throws -> (page: HubVideoPage, version: Int64?) {
        let columns = HubVideoColumn.selectList
        var page = PostgresQuery(unsafeSQL: "")
        if query.channelIDs.isEmpty {
            page = "SELECT \(unescaped: columns) FROM hub_videos WHERE seq > \(query.afterSeq) ORDER BY seq LIMIT \(query.limit)"
        } else {
            page = """
                SELECT \(unescaped: columns) FROM hub_videos WHERE seq > \(query.afterSeq) AND channel_id = ANY(\(query.channelIDs)::text[])
                ORDER BY seq LIMIT \(query.limit)
                """
        }
        let statement = PostgresQuery(
            unsafeSQL: """
                SELECT counter.value, page.* FROM hub_counters counter LEFT JOIN LATERAL (\(page.sql)) page ON true
                WHERE counter.name = 'videos_version' ORDER BY page.seq
                """,
            binds: page.binds)
        var version: Int64?
        var videos: [HubVideo] = []
        videos.reserveCapacity(query.limit)
        for row in try await database.query(statement) {
            let (value, seq, videoID, channelID, published, title, url, duration, availability, scheduledStart, description, thumbnail, views, ratings, backfilled) =
                try row.decode((Int64, Int64?, String?, String?, Double?, String?, String?, Int?, String?, Double?, String?, String?, Int?, Int?, Bool?).self)
            version = value
            guard let seq, let videoID, let channelID, let published, let title, let url else { continue }
            videos.append(HubVideo(
                seq: seq, videoID: videoID, channelID: channelID, published: published, title: title, url: url, duration: duration,
                availability: availability, scheduledStart: scheduledStart, description: description, thumbnailURL: thumbnail,
                viewCount: views, starRatingCount: ratings, backfilled: backfilled ?? false))
        }
        return (HubVideoPage(videos: videos, maxSeqReturned: videos.last?.seq ?? query.afterSeq), version)
    }

    public func ingest(
        _ ingestion: FeedIngestion, planning plan: @escaping @Sendable ([String: StoredVideoDetails]) -> FeedIngestionPlan
    ) async throws -> FeedIngestionOutcome {
        let logger = database.logger
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                try await FreshSeqs.lock(connection, logger)
                if let title = ingestion.channelTitle {
                    try await connection.query(
                        "UPDATE hub_channels SET title = \(title) WHERE channel_id = \(ingestion.channelID) AND title IS DISTINCT FROM \(title)",
                        logger: logger)
                }
                var known: [String: StoredVideoDetails] = [:]
                let ids = ingestion.videos.map(\.id)
                for try await (id, title, availability, description, thumbnail, views, ratings, start, checked) in try await connection.query(
                    """
                    SELECT video_id, title, availability, description, thumbnail_url, view_count, star_rating_count, scheduled_start,
                        EXISTS (SELECT 1 FROM youtube_availability_rechecks r WHERE r.video_id = hub_videos.video_id)
                    FROM hub_videos WHERE video_id = ANY(\(ids)::text[])
                    """,
                    logger: logger
                ).decode((String, String, String?, String?, String?, Int?, Int?, Double?, Bool).self) {
                    known[id] = StoredVideoDetails(
                        title: title, availability: availability, description: description, thumbnailURL: thumbnail, views: views, starRatings: ratings,
                        scheduledStart: start, checkedByDataAPI: checked)
                }
                let changes = plan(known)
                try await Self.refresh(changes.refreshed, connection, logger)
                for (seq, video) in try await FreshSeqs.take(for: changes.resequenced, connection, logger) {
                    try await connection.query(
                        """
                        INSERT INTO hub_videos (seq, video_id, channel_id, published_at, title, url, duration_seconds, availability, scheduled_start,
                            description, thumbnail_url, view_count, star_rating_count, backfilled)
                        VALUES (\(seq), \(video.id), \(video.channelID), \(video.published.timeIntervalSince1970), \(video.title), \(video.hubURL), \(video.duration),
                            \(video.storedAvailability), \(video.scheduledStart?.timeIntervalSince1970),
                            \(video.description), \(video.thumbnailURL), \(video.views), \(video.starRatings), \(ingestion.backfilled))
                        ON CONFLICT (video_id) DO UPDATE SET seq = excluded.seq, title = excluded.title, url = excluded.url,
                            published_at = excluded.published_at, duration_seconds = coalesce(excluded.duration_seconds, hub_videos.duration_seconds),
                            availability = excluded.availability, scheduled_start = excluded.scheduled_start,
                            description = coalesce(excluded.description, hub_videos.description),
                            thumbnail_url = coalesce(excluded.thumbnail_url, hub_videos.thumbnail_url),
                            view_count = coalesce(excluded.view_count, hub_videos.view_count),
                            star_rating_count = coalesce(excluded.star_rating_count, hub_videos.star_rating_count)
                        """, logger: logger)
                }
                for channelID in changes.trimmedChannelIDs {
                    try await connection.query(
                        """
                        DELETE FROM hub_videos WHERE channel_id = \(channelID) AND seq NOT IN (
                            SELECT seq FROM hub_videos WHERE channel_id = \(channelID) ORDER BY published_at DESC, seq DESC LIMIT \(changes.keptPerChannel))
                        """, logger: logger)
                }
                return changes.outcome
            }
        }
    }

    public func neverFetchedChannelIDs(among channelIDs: [String]) async throws -> Set<String> {
        guard !channelIDs.isEmpty else { return [] }
        let fetched = Set(try await database.query("""
            SELECT channel_id FROM hub_channels WHERE channel_id = ANY(\(channelIDs)::text[]) AND last_fetch_millis IS NOT NULL
            """).map { try $0.decode(String.self) })
        return Set(channelIDs).subtracting(fetched)
    }

    public func storedVideoIDs(among videoIDs: [String]) async throws -> Set<String> {
        guard !videoIDs.isEmpty else { return [] }
        return Set(try await database.query("SELECT video_id FROM hub_videos WHERE video_id = ANY(\(videoIDs)::text[])").map { try $0.decode(String.self) })
    }

    public func recordFetches(_ records: [ChannelFetchRecord]) async throws {
        guard !records.isEmpty else { return }
        let ids = records.map(\.channelID)
        let times = records.map { Int64($0.fetchedAt.timeIntervalSince1970 * 1000) }
        let failures = records.map { $0.failure ?? "" }
        let failed = records.map { $0.failure != nil }
        _ = try await database.query("""
            UPDATE hub_channels SET last_fetch_millis = fetched.at,
                consecutive_failures = CASE WHEN fetched.failed THEN consecutive_failures + 1 ELSE 0 END,
                last_failure = CASE WHEN fetched.failed THEN fetched.failure ELSE last_failure END
            FROM (SELECT * FROM unnest(\(ids)::text[], \(times)::bigint[], \(failures)::text[], \(failed)::boolean[]) AS f(channel_id, at, failure, failed)) AS fetched
            WHERE hub_channels.channel_id = fetched.channel_id
            """)
    }

    /// Writes the counts and thumbnails of `videos` in place (no fresh `seq`, see ``StoredVideoDetails``);
    /// unknown values travel as `''` and -1, which keep what is stored.
    private static func refresh(_ videos: [Video], _ connection: PostgresConnection, _ logger: Logger) async throws {
        guard !videos.isEmpty else { return }
        try await connection.query(
            """
            UPDATE hub_videos SET thumbnail_url = coalesce(nullif(u.thumbnail, ''), hub_videos.thumbnail_url),
                view_count = coalesce(nullif(u.views, -1), hub_videos.view_count), star_rating_count = coalesce(nullif(u.ratings, -1), hub_videos.star_rating_count)
            FROM unnest(\(videos.map(\.id))::text[], \(videos.map { $0.thumbnailURL ?? "" })::text[], \(videos.map { Int64($0.views ?? -1) })::bigint[],
                \(videos.map { Int64($0.starRatings ?? -1) })::bigint[]) AS u(video_id, thumbnail, views, ratings)
            WHERE hub_videos.video_id = u.video_id
            """, logger: logger)
    }
}
